/* The contents list of a long page (<nav class="contents">, made by site/headings.py):
   open beside the page on a wide screen, folded at the top of the page on a narrow one.
   Without JavaScript it is a <details> the reader opens and closes, open on a wide screen
   where the browser lets the stylesheet say so. */
(function () {
  "use strict";
  var wide = window.matchMedia("(min-width: 64rem)");
  document.addEventListener("DOMContentLoaded", function () {
    var details = document.querySelectorAll(".contents-details");
    if (!details.length) return;
    var fit = function () {
      details.forEach(function (d) { d.open = wide.matches; });
    };
    fit();
    if (wide.addEventListener) wide.addEventListener("change", fit);
    // On a phone, following a link of the list folds it again.
    details.forEach(function (d) {
      d.addEventListener("click", function (event) {
        if (!wide.matches && event.target.closest && event.target.closest("a")) d.open = false;
      });
    });
  });
})();
