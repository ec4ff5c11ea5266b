// The matrix's "what each source states" filter. The stylesheet greys the inherited and
// inferred cells by itself (main:has(#only-stated:checked)), so the checkbox works
// without JavaScript; this adds the same as a class (for browsers without :has) and says
// how many values of each table are greyed.
(function () {
  "use strict";
  var box = document.getElementById("only-stated");
  var status = document.getElementById("only-stated-status");
  if (!box) { return; }
  function update() {
    var tables = document.querySelectorAll("table.matrix");
    for (var i = 0; i < tables.length; i++) {
      tables[i].classList.toggle("only-stated", box.checked);
    }
    if (!status) { return; }
    var first = document.getElementById("matrix-table");
    if (!box.checked || !first) { status.textContent = ""; return; }
    var cells = first.querySelectorAll("tbody td");
    var greyed = first.querySelectorAll("tbody td.standing-inherited, tbody td.standing-inferred");
    status.textContent = greyed.length + " of " + cells.length +
      " values greyed: not stated by the system’s own source.";
  }
  box.addEventListener("change", update);
  update();
}());
