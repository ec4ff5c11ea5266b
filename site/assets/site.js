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
  });
})();
