/* Client-side search over window.SEARCH_INDEX (assets/search-index.js). */
(function () {
  "use strict";
  var index = window.SEARCH_INDEX || [];
  var input = document.getElementById("search-page-input");
  var status = document.getElementById("search-status");
  var list = document.getElementById("search-results");
  var LIMIT = 40;

  function norm(text) {
    return text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
  }

  var prepared = index.map(function (entry, i) {
    return { entry: entry, order: i, title: norm(entry.t), text: norm(entry.x) };
  });

  function snippet(text, word) {
    var at = norm(text).indexOf(word);
    if (at < 0) return text.slice(0, 160);
    var start = Math.max(0, at - 70);
    return (start > 0 ? "…" : "") + text.slice(start, at + word.length + 90) + "…";
  }

  function appendMarked(parent, text, words) {
    var lower = norm(text);
    var pos = 0;
    while (pos < text.length) {
      var next = -1, len = 0;
      words.forEach(function (w) {
        var at = lower.indexOf(w, pos);
        if (at >= 0 && (next < 0 || at < next)) { next = at; len = w.length; }
      });
      if (next < 0 || len === 0) { parent.appendChild(document.createTextNode(text.slice(pos))); return; }
      parent.appendChild(document.createTextNode(text.slice(pos, next)));
      var mark = document.createElement("mark");
      mark.textContent = text.slice(next, next + len);
      parent.appendChild(mark);
      pos = next + len;
    }
  }

  function search(query) {
    var words = norm(query).split(/\s+/).filter(Boolean);
    list.textContent = "";
    if (!words.length) {
      status.textContent = "Type a word to search every page.";
      return;
    }
    var hits = [];
    prepared.forEach(function (p) {
      var score = 0;
      for (var i = 0; i < words.length; i++) {
        var w = words[i];
        var inTitle = p.title.indexOf(w) >= 0;
        var inText = p.text.indexOf(w) >= 0;
        if (!inTitle && !inText) return;
        score += (inTitle ? 10 : 0) + (inText ? 1 : 0);
      }
      if (p.entry.u.indexOf("#") >= 0 && p.title.indexOf(words[0]) >= 0) score += 5;
      hits.push({ p: p, score: score });
    });
    hits.sort(function (a, b) { return b.score - a.score || a.p.order - b.p.order; });
    status.textContent = hits.length
      ? hits.length + " result" + (hits.length === 1 ? "" : "s") + " for “" + query + "”" +
        (hits.length > LIMIT ? " (the first " + LIMIT + " shown)" : "")
      : "Nothing found for “" + query + "”.";
    hits.slice(0, LIMIT).forEach(function (hit) {
      var li = document.createElement("li");
      var a = document.createElement("a");
      a.href = hit.p.entry.u;
      appendMarked(a, hit.p.entry.t, words);
      var p = document.createElement("p");
      appendMarked(p, snippet(hit.p.entry.x, words[0]), words);
      li.appendChild(a);
      li.appendChild(p);
      list.appendChild(li);
    });
  }

  var query = new URLSearchParams(window.location.search).get("q") || "";
  if (input) {
    input.value = query;
    input.addEventListener("input", function () { search(input.value); });
  }
  var header = document.getElementById("site-search-input");
  if (header) header.value = query;
  search(query);
})();
