// The site's only script: sortable tables and the ranking's search box. No network.
document.querySelectorAll("table.sortable th").forEach(function (th) {
  th.addEventListener("click", function () {
    var table = th.closest("table"), body = table.tBodies[0], index = th.cellIndex;
    var ascending = th.dataset.order !== "asc"; th.dataset.order = ascending ? "asc" : "desc";
    var rows = Array.from(body.rows);
    rows.sort(function (a, b) {
      var x = a.cells[index].dataset.value || a.cells[index].textContent;
      var y = b.cells[index].dataset.value || b.cells[index].textContent;
      var nx = parseFloat(x), ny = parseFloat(y);
      var order = (!isNaN(nx) && !isNaN(ny)) ? nx - ny : x.localeCompare(y);
      return ascending ? order : -order;
    });
    rows.forEach(function (row) { body.appendChild(row); });
  });
});
document.querySelectorAll("input.search").forEach(function (box) {
  var table = document.getElementById(box.dataset.table);
  box.addEventListener("input", function () {
    var wanted = box.value.trim().toLowerCase();
    Array.from(table.tBodies[0].rows).forEach(function (row) {
      row.hidden = wanted !== "" && row.dataset.name.indexOf(wanted) < 0;
    });
  });
});
