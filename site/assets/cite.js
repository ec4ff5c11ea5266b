// "Cite this page": a copy button for the citation, its BibTeX and its CSL-JSON. Without
// JavaScript the buttons stay hidden and the texts can be selected as they are. Works
// from file:// (the Clipboard API where the browser grants it, else a selection copied).
(function () {
  "use strict";
  function copyBySelection(text) {
    var area = document.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.style.position = "fixed";
    area.style.opacity = "0";
    document.body.appendChild(area);
    area.select();
    var done = false;
    try { done = document.execCommand("copy"); } catch (e) { done = false; }
    document.body.removeChild(area);
    return done;
  }
  function say(button, message) {
    var box = button.closest(".cite-this");
    var status = box ? box.querySelector(".cite-status") : null;
    if (status) { status.textContent = message; }
  }
  function copy(button) {
    var source = document.getElementById(button.getAttribute("data-copy"));
    if (!source) { return; }
    var text = source.textContent.replace(/\s+$/, "") + "\n";
    var what = button.textContent.replace(/^Copy the /, "");
    var copied = "Copied the " + what + ".";
    var failed = "Could not copy: select the " + what + " and copy it.";
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(text).then(function () { say(button, copied); },
        function () { say(button, copyBySelection(text) ? copied : failed); });
    } else {
      say(button, copyBySelection(text) ? copied : failed);
    }
  }
  var buttons = document.querySelectorAll("button.cite-copy[data-copy]");
  for (var i = 0; i < buttons.length; i++) {
    buttons[i].hidden = false;
    buttons[i].addEventListener("click", function (event) { copy(event.currentTarget); });
  }
}());
