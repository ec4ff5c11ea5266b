/* The light, dark or automatic theme, as the reader chose it, remembered across pages.

   Loaded in <head> without `defer`, so that the theme is set before anything is painted
   (no flash of the other theme). Without JavaScript (or with storage refused, as some
   browsers do for file://) the site follows the system's setting (prefers-color-scheme),
   and no control is shown. The choice is kept in localStorage under "bouillotte-theme":
   "light" or "dark"; "auto" removes it. The stylesheet reads <html data-theme="…">. */
(function () {
  "use strict";
  var KEY = "bouillotte-theme";
  var root = document.documentElement;
  var CHOICES = [["auto", "Auto"], ["light", "Light"], ["dark", "Dark"]];

  function stored() {
    try {
      var value = window.localStorage.getItem(KEY);
      return value === "light" || value === "dark" ? value : "auto";
    } catch (e) {
      return "auto";
    }
  }
  function apply(choice) {
    if (choice === "light" || choice === "dark") root.setAttribute("data-theme", choice);
    else root.removeAttribute("data-theme");
  }
  function remember(choice) {
    try {
      if (choice === "auto") window.localStorage.removeItem(KEY);
      else window.localStorage.setItem(KEY, choice);
    } catch (e) {
      /* Storage refused: the choice holds for this page only. */
    }
  }

  apply(stored());

  document.addEventListener("DOMContentLoaded", function () {
    var header = document.querySelector(".header-inner");
    if (!header) return;
    var label = document.createElement("label");
    label.setAttribute("for", "theme-choice");
    label.textContent = "Theme";
    var select = document.createElement("select");
    select.id = "theme-choice";
    CHOICES.forEach(function (choice) {
      var option = document.createElement("option");
      option.value = choice[0];
      option.textContent = choice[1];
      select.appendChild(option);
    });
    select.value = stored();
    select.addEventListener("change", function () {
      remember(select.value);
      apply(select.value);
    });
    var wrap = document.createElement("div");
    wrap.className = "theme-choice";
    wrap.appendChild(label);
    wrap.appendChild(select);
    // Beside the site's name: on the header's first line, which the name leaves room on.
    var name = header.querySelector(".site-name");
    header.insertBefore(wrap, name ? name.nextSibling : header.firstChild);
  });
  // Another tab or window of the site changed the theme: follow it.
  window.addEventListener("storage", function (event) {
    if (event.key === KEY || event.key === null) {
      apply(stored());
      var select = document.getElementById("theme-choice");
      if (select) select.value = stored();
    }
  });
})();
