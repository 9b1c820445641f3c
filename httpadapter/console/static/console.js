// The console works without JavaScript; this only adds conveniences:
// folding the nodes of a transaction tree and showing Daml's standard
// packages on demand.
(function () {
  "use strict";
  document.documentElement.classList.add("js");
  document.addEventListener("DOMContentLoaded", function () {
    var tree = document.getElementById("tree");
    if (tree) {
      tree.addEventListener("click", function (ev) {
        var head = ev.target.closest(".head");
        if (!head || ev.target.closest("a")) { return; }
        head.parentElement.classList.toggle("collapsed");
      });
      var set = function (collapsed) {
        tree.querySelectorAll("li.node").forEach(function (n) { n.classList.toggle("collapsed", collapsed); });
      };
      var c = document.getElementById("collapse-all");
      var e = document.getElementById("expand-all");
      if (c) { c.addEventListener("click", function () { set(true); }); }
      if (e) { e.addEventListener("click", function () { set(false); }); }
    }
    var toggle = document.getElementById("show-utility");
    if (toggle) {
      toggle.addEventListener("change", function () {
        document.body.classList.toggle("show-utility", toggle.checked);
      });
    }
  });
})();
