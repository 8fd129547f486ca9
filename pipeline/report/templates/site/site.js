// The site's only script: sortable tables, the ranking's search box and paged tables (every
// row is in the page: without the script all show). No network.
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
// A row is found when every word typed is in its name, in any order ("reese terence").
document.querySelectorAll("input.search").forEach(function (box) {
  var tables = box.dataset.tables.split(" ").map(function (id) {
    return document.getElementById(id);
  }).filter(Boolean);
  box.addEventListener("input", function () {
    var words = box.value.trim().toLowerCase().split(/\s+/).filter(Boolean);
    tables.forEach(function (table) {
      Array.from(table.tBodies[0].rows).forEach(function (row) {
        row.hidden = !words.every(function (word) { return row.dataset.name.indexOf(word) >= 0; });
      });
    });
  });
});
document.querySelectorAll("table.paged").forEach(function (table) {
  var rows = Array.from(table.tBodies[0].rows), size = parseInt(table.dataset.pageRows, 10);
  if (rows.length <= size) return;
  var nav = document.createElement("p"), page = 0, pages = Math.ceil(rows.length / size);
  nav.className = "pager";
  var back = document.createElement("button"), next = document.createElement("button");
  var where = document.createElement("span");
  back.textContent = "\u2190 previous"; next.textContent = "next \u2192";
  function show() {
    rows.forEach(function (row, i) { row.hidden = Math.floor(i / size) !== page; });
    where.textContent = " rows " + (page * size + 1) + "-" + Math.min(rows.length, (page + 1) * size) +
      " of " + rows.length + " ";
    back.disabled = page === 0; next.disabled = page === pages - 1;
  }
  back.addEventListener("click", function () { page -= 1; show(); });
  next.addEventListener("click", function () { page += 1; show(); });
  nav.append(back, where, next);
  table.after(nav);
  show();
});
