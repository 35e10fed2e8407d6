// The deadline's live countdown (the page reads without it: the time itself is in the text).
(function () {
  "use strict";
  const els = document.querySelectorAll(".countdown[data-deadline]");
  function plural(n, one, few, many) {
    const m10 = n % 10, m100 = n % 100;
    if (m10 === 1 && m100 !== 11) return one;
    if (m10 >= 2 && m10 <= 4 && (m100 < 10 || m100 >= 20)) return few;
    return many;
  }
  function tick() {
    const now = Date.now();
    for (const el of els) {
      const left = Math.floor((Date.parse(el.dataset.deadline) - now) / 1000);
      if (left <= 0) { el.textContent = "— срок наступил, обновите страницу"; continue; }
      const d = Math.floor(left / 86400), h = Math.floor(left % 86400 / 3600), m = Math.floor(left % 3600 / 60), s = left % 60;
      const parts = [];
      if (d) parts.push(d + " " + plural(d, "день", "дня", "дней"));
      if (d || h) parts.push(h + " ч");
      parts.push(m + " мин");
      if (!d) parts.push(s + " с");
      el.textContent = "— осталось " + parts.join(" ");
    }
  }
  if (els.length) { tick(); setInterval(tick, 1000); }
})();
