"""The test suite.

One BLAS thread per process, as ``bridgerank`` runs (pipeline/cli.py), set here because this
package is imported before tests/conftest.py and anything it loads: the tests run the command
in their own process, after numpy is loaded, where the command can no longer set it; and a
Cholesky factor taken by two threads can differ from one thread's in its last bit (the golden
report compares every bit). A setting of the variables from outside wins.
"""

import os

for _variable in ("OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")
