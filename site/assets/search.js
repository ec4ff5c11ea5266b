/* Client-side search over window.SEARCH_INDEX (assets/search-index.js).

   Ranking: every word must be found (at the start of a word) in an entry's title or text;
   a glossary term, then a system, a rule, a scenario, a page, a paragraph of a shipped
   text (its entry leads to the paragraph, texts/<work>.html#p26), a section weigh more in
   that order; a title that is the query, or holds it as a phrase, and the exact phrase in
   the text weigh most. An English word of `synonyms` below ("favorite") also searches the site's
   word ("favori").

   Then the entries found only by forgiving the words (MiniSearch, assets/minisearch.js): a
   misspelling ("favory", "bouillote": one letter wrong in a word of four letters or more,
   two in a word of eight), another form of a word ("straddles" finds "straddle": plurals are
   reduced on both sides) and word beginnings. They come after every exact hit, ranked as the
   words they matched would rank them (so "favory" lists what "favori" lists), then by
   MiniSearch's score, with those words marked. The index of
   these words is built in the browser from window.SEARCH_INDEX, so nothing more is
   downloaded than the script. */
(function () {
  "use strict";
  var index = window.SEARCH_INDEX || [];
  // English words a reader may type, and the site's word, searched as well.
  var synonyms = {
    "favorite": "favori",
    "favourite": "favori",
    "four of a kind": "carre",
    "three of a kind": "brelan",
    "triplet": "brelan",
    "upcard": "retourne",
    "up card": "retourne",
    "stake": "cave",
    "buy-in": "cave",
    "pot": "pool",
    "all-in": "sight",
    "all in": "sight"
  };
  var input = document.getElementById("search-page-input");
  var status = document.getElementById("search-status");
  var list = document.getElementById("search-results");
  var LIMIT = 40;
  var KIND = { glossary: 14, system: 20, rule: 10, scenario: 8, page: 5, paragraph: 2, section: 0 };

  function norm(text) {
    return text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
  }
  function words(text) {
    return " " + norm(text).replace(/[^a-z0-9]+/g, " ").trim() + " ";
  }

  var prepared = index.map(function (entry, i) {
    var names = entry.t.split(" — ")[0];
    return {
      entry: entry,
      order: i,
      title: words(entry.t),
      text: words(entry.x),
      names: names.split(/\s*[(),;]\s*/).map(function (n) { return words(n).trim().replace(/^also /, ""); }),
      kind: KIND[entry.k] || 0
    };
  });

  // English plurals (and French ones) reduced, so that "straddles" and "straddle" meet.
  function stem(term) {
    if (term.length > 4 && /ies$/.test(term)) return term.slice(0, -3) + "y";
    if (/(ss|us|is)$/.test(term) || term.length < 4) return term;
    if (/(ches|shes|sses|xes)$/.test(term)) return term.slice(0, -2);
    if (/s$/.test(term)) return term.slice(0, -1);
    return term;
  }
  var forgiving = null;
  if (window.MiniSearch) {
    forgiving = new window.MiniSearch({
      fields: ["title", "text"],
      idField: "id",
      processTerm: function (term) { var t = norm(term); return t ? stem(t) : null; }
    });
    forgiving.addAll(index.map(function (entry, i) { return { id: i, title: entry.t, text: entry.x }; }));
  }
  function near(query) {
    if (!forgiving) return [];
    return forgiving.search(query, {
      combineWith: "AND",
      boost: { title: 3 },
      prefix: function (term) { return term.length >= 4; },
      fuzzy: function (term) { return term.length >= 8 ? 2 : term.length >= 4 ? 1 : false; }
    });
  }

  function alternatives(query) {
    var base = words(query).trim();
    var found = [base];
    // The words with their plurals reduced ("straddles": "straddle"), searched as well.
    var singular = base.split(" ").map(stem).join(" ");
    if (singular !== base) found.push(singular);
    Object.keys(synonyms).forEach(function (english) {
      var from = words(english).trim();
      if ((" " + base + " ").indexOf(" " + from + " ") >= 0) {
        found.push((" " + base + " ").split(" " + from + " ").join(" " + words(synonyms[english]).trim() + " ").trim());
      }
    });
    return found;
  }

  function score(p, query) {
    var ws = query.split(" ").filter(Boolean);
    var total = p.kind;
    for (var i = 0; i < ws.length; i++) {
      var w = " " + ws[i];
      var inTitle = p.title.indexOf(w) >= 0;
      var inText = p.text.indexOf(w) >= 0;
      if (!inTitle && !inText) return 0;
      total += (inTitle ? 10 : 0) + (inText ? 1 : 0);
    }
    if (p.names.indexOf(query) >= 0) total += 40;
    else if (p.title.indexOf(" " + query) === 0) total += 8;
    if (ws.length > 1) {
      if (p.title.indexOf(" " + query + " ") >= 0) total += 40;
      if (p.text.indexOf(" " + query + " ") >= 0) total += 15;
    }
    return total;
  }

  function snippet(text, query) {
    var lower = norm(text);
    var at = lower.indexOf(query);
    if (at < 0) at = lower.indexOf(query.split(" ")[0]);
    var start = 0;
    if (at > 60) {
      start = text.lastIndexOf(" ", at - 50) + 1;
    }
    var end = text.indexOf(" ", Math.max(at, 0) + 110);
    if (end < 0) end = text.length;
    return (start > 0 ? "… " : "") + text.slice(start, end) + (end < text.length ? " …" : "");
  }

  function appendMarked(parent, text, ws) {
    var lower = norm(text);
    var pos = 0;
    while (pos < text.length) {
      var next = -1, len = 0;
      ws.forEach(function (w) {
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
    var queries = alternatives(query);
    list.textContent = "";
    if (!queries[0]) {
      status.textContent = "Type a word to search every page.";
      return;
    }
    var hits = [];
    prepared.forEach(function (p) {
      var best = 0, used = queries[0];
      queries.forEach(function (q, n) {
        var s = score(p, q) - (n ? 2 : 0);
        if (s > best) { best = s; used = q; }
      });
      if (best > 0) hits.push({ p: p, score: best, query: used });
    });
    var exact = {};
    hits.forEach(function (hit) { exact[hit.p.order] = true; });
    // Another form of a query's word ("straddles": "straddle") ranks with the exact hits;
    // a near spelling comes after them.
    var stems = words(queries[0]).trim().split(" ").map(stem);
    var forgiven = [];
    near(queries[0]).forEach(function (found) {
      if (exact[found.id]) return;
      var p = prepared[found.id];
      // Ranked as the words it matched would rank it (the word meant), then by MiniSearch.
      var best = 0;
      found.terms.forEach(function (term) { best = Math.max(best, score(p, term)); });
      var hit = { p: p, score: best, near: found.score, query: found.terms.join(" ") };
      var formOf = found.terms.every(function (term) { return stems.indexOf(term) >= 0; });
      (formOf && best > 0 ? hits : forgiven).push(hit);
    });
    var others = hits.length - Object.keys(exact).length + forgiven.length;
    hits.sort(function (a, b) { return b.score - a.score || a.p.order - b.p.order; });
    forgiven.sort(function (a, b) {
      return b.score - a.score || (a.score ? a.p.order - b.p.order : b.near - a.near);
    });
    hits = hits.concat(forgiven);
    status.textContent = hits.length
      ? hits.length + " result" + (hits.length === 1 ? "" : "s") + " for “" + query + "”" +
        (others ? " (" + others + " of them for a near spelling or another form of the words)" : "") +
        (hits.length > LIMIT ? " (the first " + LIMIT + " shown)" : "")
      : "Nothing found for “" + query + "”.";
    hits.slice(0, LIMIT).forEach(function (hit) {
      var ws = hit.query.split(" ").filter(Boolean);
      var li = document.createElement("li");
      var a = document.createElement("a");
      a.href = hit.p.entry.u;
      appendMarked(a, hit.p.entry.t, ws);
      var p = document.createElement("p");
      appendMarked(p, snippet(hit.p.entry.x, hit.query), ws);
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
