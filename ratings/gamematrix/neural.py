"""The neural decomposition of a game (spec 6.7; Vadori and Savani 2024), an optional extra.

Two networks, trained together on the observed entries of ``A = P - 1/2``:

* the **disk network** reads each player's observed row of ``A`` (0 where missing) and mask
  row and gives that player a potential ``rho_i`` and ``k`` pairs ``(u_li, v_li)``. Gram-Schmidt
  inside the graph makes ``[1, rho, u_1, v_1, ...]`` orthogonal, so the potential part
  ``T = rho 1^T - 1 rho^T`` is transitive by construction and every disc of
  ``C = sum_l (u_l v_l^T - v_l u_l^T)`` is cyclic (orthogonal to the constant vector, its
  points cannot all sit in a half-plane). ``D = T + C`` lives in "disk space", scaled to a
  root mean square of 1. When the training game is cyclic (a chain of wins through every
  player) the potential is switched off, as the paper does.
* the **basis network** ``g`` turns a disk-space value into ``m`` basis functions
  ``f_l(x) = tanh(g_l(x) - g_l(-x)) / 2``: odd by construction, with the range (-1/2, 1/2) of
  ``A``; a loss term keeps them increasing.

In training each entry takes the basis function that fits it best
(``l* = argmin_l |f_l(D_ij) - A_ij|``); elsewhere the basis functions are weighted by the
shares the nearest training entries (in disk space) were assigned to each.

The paper's loss formulas and constants were lost in extraction; the terms below are the
spec's reconstruction (``L_rec + lambda_T L_T + lambda_C L_C + lambda_inc L_inc``), and the
defaults its small reference sketch. PyTorch (CPU) is needed: ``pip install -e '.[neural]'``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from bridgerank.core.errors import SettingsError
from bridgerank.ratings.gamematrix.matrix import GameMatrix
from bridgerank.ratings.gamematrix.structure import classify

if TYPE_CHECKING:
    import torch

#: Points at which the basis network is evaluated in training (interpolated in between).
GRID_POINTS = 129

#: The margin by which ``D`` should carry the sign of ``A``, in units of D's root mean square.
SIGN_MARGIN = 0.05


def require_torch() -> Any:
    """The ``torch`` module, or a one-line :class:`SettingsError` saying how to install it."""
    try:
        import torch
    except ImportError as missing:
        error = SettingsError("the neural decomposition needs PyTorch, which is not installed")
        error.hint = "Install the extra: pip install -e '.[neural]' (a CPU build of torch will do)"
        raise error from missing
    return torch


@dataclass(frozen=True)
class NeuralOptions:
    """How the two networks are built and trained (spec 6.7; defaults of its sketch)."""

    bases: int = 1  # m, basis functions
    hidden: int = 200  # units per hidden layer
    layers: int = 3  # hidden layers of each network
    steps: int = 3000  # Adam steps, full batch
    learning_rate: float = 1e-3
    weight_transitive: float = 10.0  # lambda_T
    weight_sign: float = 3.0  # lambda_C
    weight_increasing: float = 10.0  # lambda_inc
    neighbours: int = 25  # training entries whose assignments weight an unseen entry
    # Fits from this many seeds, the one with the lowest training loss kept: from some
    # starts Adam settles with the potential's sign reversed (a loss of ~14 where a good fit
    # reaches ~0), and which starts do depends on the processor's arithmetic.
    restarts: int = 3


@dataclass
class NeuralDecomposition:
    """A fitted decomposition: disk space and the reconstructed payoff of every pair.

    ``payoff`` is ``A_hat`` (antisymmetric, in (-1/2, 1/2)); ``potential`` is ``rho`` (zeros
    when the potential was switched off); ``u`` and ``v`` hold the discs as columns;
    ``assigned_share[l]`` is the share of training entries fitted by basis function ``l``.
    """

    payoff: np.ndarray
    disk: np.ndarray
    potential: np.ndarray
    u: np.ndarray
    v: np.ndarray
    assigned_share: np.ndarray
    potential_used: bool
    final_loss: float

    def logits(self) -> np.ndarray:
        return np.log(self.probabilities()) - np.log1p(-self.probabilities())

    def probabilities(self) -> np.ndarray:
        return np.clip(0.5 + self.payoff, 1e-9, 1 - 1e-9)


def _network(torch: Any, inputs: int, outputs: int, options: NeuralOptions) -> Any:
    """``layers`` tanh layers of ``hidden`` units, an identity output; Xavier-uniform weights."""
    modules: list[Any] = []
    width = inputs
    for _ in range(options.layers):
        modules += [torch.nn.Linear(width, options.hidden), torch.nn.Tanh()]
        width = options.hidden
    modules.append(torch.nn.Linear(width, outputs))
    network = torch.nn.Sequential(*modules)
    for module in network:
        if isinstance(module, torch.nn.Linear):
            torch.nn.init.xavier_uniform_(module.weight)
            torch.nn.init.zeros_(module.bias)
    return network


def gram_schmidt(columns: torch.Tensor) -> torch.Tensor:
    """The columns made orthogonal to the constant vector and to each other, in order
    (``y <- y - <x, y>/<x, x> x``), inside the autograd graph. Past ``n`` vectors (two players
    have room for the constant and a potential only) the rest come out as zeros."""
    torch = require_torch()
    done = [columns.new_ones(columns.shape[0])]
    for index in range(columns.shape[1]):
        y = columns[:, index]
        for x in done:
            y = y - (x @ y) / (x @ x).clamp_min(1e-8) * x
        done.append(y)
    return torch.stack(done[1:], dim=1)


def _rms(x: torch.Tensor) -> torch.Tensor:
    """Root mean square, as a constant: a normaliser that carried gradient would let the
    network lower a hinge by blowing up a few entries instead of fixing the many."""
    return x.detach().pow(2).mean().sqrt().clamp_min(1e-8)


def _mean_or_zero(x: torch.Tensor) -> torch.Tensor:
    return x.mean() if x.numel() else x.new_zeros(())


def _disk_space(
    raw: torch.Tensor, entries: tuple[torch.Tensor, torch.Tensor], use_potential: bool
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
    """``(D, rho, U, V)`` from the disk network's raw per-player outputs, scaled so that ``D``
    has a root mean square of 1 over the training ``entries``.

    The basis functions can absorb any scale of disk space, so without this the sign terms,
    measured against D's own scale, would let it drift towards zero.
    """
    vectors = gram_schmidt(raw)
    rho = vectors[:, 0] if use_potential else raw.new_zeros(raw.shape[0])
    u, v = vectors[:, 1::2], vectors[:, 2::2]
    disk = rho[:, None] - rho[None, :] + u @ v.T - v @ u.T
    scale = disk[entries].pow(2).mean().sqrt().clamp_min(1e-8)
    root = scale.sqrt()
    return disk / scale, rho / scale, u / root, v / root


def basis_on_grid(torch: Any, basis: Any, disk: torch.Tensor) -> tuple[Any, Any]:
    """An evenly spaced grid symmetric about 0 that spans ``disk``, and the basis functions
    ``f_l(x) = tanh(g_l(x) - g_l(-x)) / 2`` on it, shape (points, m). Symmetry gives
    ``g(-x)`` as ``g(x)`` reversed: one call of the network."""
    reach = disk.detach().abs().max().clamp_min(1e-3)
    grid = torch.linspace(-reach, reach, GRID_POINTS, dtype=disk.dtype)
    raw = basis(grid.reshape(-1, 1))
    return grid, 0.5 * (raw - raw.flip(0)).tanh()


def _on_grid(grid: torch.Tensor, values: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
    """The basis functions at ``x`` by linear interpolation between their ``values`` on the
    evenly spaced ``grid``: shape (len(x), m), differentiable in both."""
    spacing = grid[1] - grid[0]
    position = ((x - grid[0]) / spacing).clamp(0, len(grid) - 1)
    low = position.detach().floor().long().clamp(max=len(grid) - 2)
    fraction = (position - low)[:, None]
    return values[low] * (1 - fraction) + values[low + 1] * fraction


def _losses(
    torch: Any,
    basis: Any,
    disk: torch.Tensor,
    potential: torch.Tensor | None,
    target: torch.Tensor,
    permutation: torch.Tensor,
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
    """The four terms on the training entries (``disk``, ``potential`` and ``target`` are
    flattened to them): reconstruction, potential sign, disk sign, increasing bases.

    The basis network is evaluated on :data:`GRID_POINTS` values spanning disk space and
    interpolated: it maps one number to ``m``, so its cost need not grow with the entries.
    """
    grid, on_grid = basis_on_grid(torch, basis, disk)
    values = _on_grid(grid, on_grid, disk)  # (E, m)
    chosen = (values - target[:, None]).abs().argmin(dim=1)
    fitted = values.gather(1, chosen[:, None]).squeeze(1)
    reconstruction = (fitted - target).pow(2).mean()

    decided = target != 0
    sign = torch.sign(target)
    # D should carry A's sign by a margin (a hinge, scaled like a correlation); ties near 0.
    sign_term = _mean_or_zero(torch.relu(SIGN_MARGIN - sign[decided] * disk[decided] / _rms(disk)))
    sign_term = sign_term + _mean_or_zero(disk[~decided].pow(2)) / _rms(disk).pow(2)
    if potential is not None:
        # Scaled by disk space, not by T itself: a scale that shrank with T would push a T
        # that can only be right by vanishing (inside cycles) ever harder towards zero.
        potential_term = _mean_or_zero(
            torch.relu(-target[decided] * potential[decided]) / (_rms(target) * _rms(disk))
        )
        potential_term = potential_term + _mean_or_zero(potential[~decided].pow(2)) / _rms(
            disk
        ).pow(2)
    else:
        potential_term = disk.new_zeros(())
    # Increasing: f(x) - f(x') must share the sign of x - x', here for the grid's points and a
    # shuffle of them (the basis functions at permuted inputs).
    step = on_grid - on_grid[permutation]
    gap = (grid - grid[permutation])[:, None]
    increasing = torch.relu(-step * gap).mean() / (_rms(step) * _rms(gap))
    return reconstruction, potential_term, sign_term, increasing


def _weights_from_neighbours(
    train_disk: np.ndarray, assigned: np.ndarray, bases: int, query: np.ndarray, neighbours: int
) -> np.ndarray:
    """For each value of ``query``, the share of each basis among the ``neighbours`` training
    entries nearest in disk space: shape (len(query), m)."""
    order = np.argsort(train_disk)
    sorted_disk = train_disk[order]
    sorted_assigned = assigned[order]
    count = len(sorted_disk)
    take = min(max(neighbours, 1), count)
    weights = np.zeros((len(query), bases))
    position = np.searchsorted(sorted_disk, query)
    for row, centre in enumerate(position):
        low, high = max(centre - take, 0), min(centre + take, count)
        window = np.arange(low, high)
        nearest = window[np.argsort(np.abs(sorted_disk[window] - query[row]))[:take]]
        weights[row] = np.bincount(sorted_assigned[nearest], minlength=bases) / take
    return weights


def fit_neural(
    game: GameMatrix, discs: int, seed: int = 0, options: NeuralOptions | None = None
) -> NeuralDecomposition:
    """Train the disk and basis networks on the observed entries of ``game``.

    Parameters
    ----------
    game : GameMatrix
        The training game: its mask holds the entries to learn from.
    discs : int
        ``k``, the cyclic discs of the disk space (the potential comes on top; where it is
        switched off, ``k + 1`` discs).
    seed : int
        Seeds the weights and the permutations: the same seed gives the same fit (the best
        of ``options.restarts`` fits, each from a seed derived from this one).
    options : NeuralOptions, optional

    Returns
    -------
    NeuralDecomposition
    """
    torch = require_torch()
    options = options or NeuralOptions()
    # One thread: the networks are small, a second thread costs more in hand-offs than it
    # gains, and threads that spin-wait for a core another process holds slow a fit tenfold.
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        fits = [
            _fit(torch, game, discs, seed + 1_000_003 * restart, options)
            for restart in range(max(1, options.restarts))
        ]
    finally:
        torch.set_num_threads(threads)
    return min(fits, key=lambda fit: fit.final_loss)


def _fit(
    torch: Any, game: GameMatrix, discs: int, seed: int, options: NeuralOptions
) -> NeuralDecomposition:
    """:func:`fit_neural` with ``torch`` loaded and its options settled."""
    torch.manual_seed(seed)
    n = game.n
    payoff = torch.tensor(game.payoff, dtype=torch.float32)
    mask = torch.tensor(game.mask, dtype=torch.float32)
    features = torch.cat([payoff * mask, mask], dim=1)
    # f is odd and D antisymmetric, so the upper triangle carries every training entry.
    rows, columns = np.nonzero(np.triu(game.mask, 1))
    if not len(rows):
        raise SettingsError("the neural decomposition needs at least one observed pair")
    entries = (torch.as_tensor(rows), torch.as_tensor(columns))
    target = payoff[entries]
    # Inside a strongly connected "beats" graph a potential that never contradicts a win must
    # be constant: switch it off there (the paper does so for cyclic games; the same for a
    # tournament, by Camion's theorem).
    use_potential = not classify(game).strongly_connected
    # The same capacity as the other methods (a transitive component and k discs): a game
    # without its potential gets one more disc instead.
    cyclic_discs = discs if use_potential else discs + 1

    disk_network = _network(torch, 2 * n, 1 + 2 * cyclic_discs, options)
    basis = _network(torch, 1, options.bases, options)
    optimiser = torch.optim.Adam(
        list(disk_network.parameters()) + list(basis.parameters()),
        lr=options.learning_rate,
        foreach=True,
    )
    generator = torch.Generator().manual_seed(seed)
    loss_value = float("nan")
    for _ in range(options.steps):
        disk, rho, _, _ = _disk_space(disk_network(features), entries, use_potential)
        potential = (rho[:, None] - rho[None, :])[entries] if use_potential else None
        permutation = torch.randperm(GRID_POINTS, generator=generator)
        reconstruction, potential_sign, sign, increasing = _losses(
            torch, basis, disk[entries], potential, target, permutation
        )
        loss = (
            reconstruction
            + options.weight_transitive * potential_sign
            + options.weight_sign * sign
            + options.weight_increasing * increasing
        )
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
        loss_value = float(loss.detach())

    with torch.no_grad():
        disk, rho, u, v = _disk_space(disk_network(features), entries, use_potential)
        flat = disk[entries]
        upper_rows, upper_columns = np.triu_indices(n, 1)
        every = disk[torch.as_tensor(upper_rows), torch.as_tensor(upper_columns)]
        # The grid spans every pair now, and the functions are read off it as in training.
        grid, on_grid = basis_on_grid(torch, basis, every)
        values = _on_grid(grid, on_grid, flat)
        assigned = (values - target[:, None]).abs().argmin(dim=1).numpy()
        every_values = _on_grid(grid, on_grid, every).numpy().astype(float)
    train_disk = flat.numpy().astype(float)
    weights = _weights_from_neighbours(
        train_disk, assigned, options.bases, every.numpy().astype(float), options.neighbours
    )
    upper = np.sum(weights * every_values, axis=1)
    # A training entry keeps the basis it was fitted with.
    trained = np.zeros((n, n), dtype=int) - 1
    trained[rows, columns] = assigned
    chosen = trained[upper_rows, upper_columns]
    seen = chosen >= 0
    upper[seen] = every_values[seen, chosen[seen]]
    reconstructed = np.zeros((n, n))
    reconstructed[upper_rows, upper_columns] = upper
    reconstructed -= reconstructed.T
    return NeuralDecomposition(
        payoff=reconstructed,
        disk=disk.numpy().astype(float),
        potential=rho.numpy().astype(float),
        u=u.numpy().astype(float),
        v=v.numpy().astype(float),
        assigned_share=np.bincount(assigned, minlength=options.bases) / len(assigned),
        potential_used=use_potential,
        final_loss=loss_value,
    )
