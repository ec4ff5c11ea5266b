/* Small enhancements; every page works without them. */
(function () {
  "use strict";
  document.documentElement.classList.add("js");
  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll(".js-only").forEach(function (el) {
      el.hidden = false;
    });
    document.querySelectorAll(".no-js").forEach(function (el) {
      el.hidden = true;
    });
    var box = document.getElementById("only-differences");
    if (box) {
      var table = document.getElementById(box.getAttribute("data-table"));
      var apply = function () {
        if (table) table.classList.toggle("only-differences", box.checked);
      };
      box.addEventListener("change", apply);
      apply();
    }
    // The pair chooser: every pair is a page already; this only goes to it.
    var chooser = document.getElementById("pair-chooser");
    if (chooser) {
      var order = (document.querySelector(".pair-list") || chooser).getAttribute("data-order");
      var ids = order ? order.split(" ") : [];
      chooser.addEventListener("submit", function (event) {
        event.preventDefault();
        var a = document.getElementById("pair-first").value;
        var b = document.getElementById("pair-second").value;
        var message = document.getElementById("pair-message");
        if (a === b) {
          message.textContent = "Choose two different systems.";
          return;
        }
        if (ids.indexOf(a) > ids.indexOf(b)) { var t = a; a = b; b = t; }
        window.location.href = encodeURIComponent(a) + "--" + encodeURIComponent(b) + ".html";
      });
    }
    // Say so when a wide table has more columns than the screen shows.
    var hints = function () {
      document.querySelectorAll(".scroll-hint").forEach(function (hint) {
        var wrap = hint.nextElementSibling;
        if (wrap) hint.hidden = wrap.scrollWidth <= wrap.clientWidth + 1;
      });
    };
    window.addEventListener("resize", hints);
    hints();
    // The matrix's header row follows the page down the table. Its box scrolls sideways
    // only, which makes it the box CSS's sticky header would stick to, so the header is
    // moved down by the distance the page has scrolled past the table's top (never past
    // its last row); the rule column stays sticky as it is. Without JavaScript the box
    // keeps a height of its own and the header sticks inside it.
    var tables = [];
    document.querySelectorAll(".matrix-wrap > table").forEach(function (table) {
      if (table.tHead) tables.push(table);
    });
    if (tables.length) {
      var waiting = false;
      var follow = function () {
        waiting = false;
        tables.forEach(function (table) {
          var head = table.tHead;
          var moved = Number(head.getAttribute("data-moved") || 0);
          var shift = 0;
          // Below 40rem the matrix is one card per rule and its header is hidden.
          if (getComputedStyle(table).display === "table") {
            // Where the header stands unmoved: just above the first row (the cells moved,
            // not the rows, so the body's place is the header's own).
            var first = table.tBodies[0];
            var last = table.tBodies[table.tBodies.length - 1];
            if (first) {
              var top = first.getBoundingClientRect().top - head.offsetHeight;
              var room = last.getBoundingClientRect().bottom - top - head.offsetHeight;
              shift = Math.round(Math.max(0, Math.min(-top, room)));
            }
          }
          if (shift === moved) return;
          head.setAttribute("data-moved", String(shift));
          head.querySelectorAll("th").forEach(function (cell) {
            cell.style.transform = shift ? "translateY(" + shift + "px)" : "";
          });
        });
      };
      var soon = function () {
        if (!waiting) {
          waiting = true;
          window.requestAnimationFrame(follow);
        }
      };
      window.addEventListener("scroll", soon, { passive: true });
      window.addEventListener("resize", soon);
      follow();
    }
  });
})();
