// A citation [n] opens its source, scrolls to the first sentence the answer rests on and flashes it. Without
// JavaScript the link still jumps to the source, which the page renders open when it is cited.
(function () {
  function show(n, smooth) {
    var item = document.getElementById("src-" + n);
    if (!item) return;
    var details = item.querySelector("details");
    if (details) details.open = true;
    var target = item.querySelector("mark") || item;
    target.scrollIntoView({behavior: smooth ? "smooth" : "auto", block: "center"});
    target.classList.remove("flash");
    void target.offsetWidth;  // restart the animation on a second click
    target.classList.add("flash");
  }
  document.addEventListener("click", function (e) {
    var a = e.target.closest ? e.target.closest("a.cite") : null;
    if (!a) return;
    e.preventDefault();
    history.replaceState(null, "", "#src-" + a.dataset.n);
    show(a.dataset.n, true);
  });
  var m = /^#src-(\d+)$/.exec(location.hash);
  if (m) show(m[1], false);
})();
