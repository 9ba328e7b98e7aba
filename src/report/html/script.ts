// The report page's script, inlined: filters, search and copy buttons. The page is complete without it.
export const PAGE_SCRIPT = `
(function () {
  var form = document.querySelector('form.filters');
  var items = Array.prototype.slice.call(document.querySelectorAll('[data-status]'));
  function apply() {
    var area = form.area.value, severity = form.severity.value, status = form.status.value, q = form.q.value.trim().toLowerCase();
    var shown = 0;
    items.forEach(function (el) {
      var ok = (!area || el.dataset.area === area)
        && (!severity || !el.dataset.severity || el.dataset.severity === severity)
        && (!status || el.dataset.status === status)
        && (!q || (el.dataset.text || '').indexOf(q) >= 0);
      el.hidden = !ok;
      if (ok && !el.classList.contains('cell')) shown++;
    });
    document.querySelectorAll('details.suite').forEach(function (d) {
      var any = d.querySelector('tbody tr:not([hidden])');
      d.hidden = !any;
      if (q || status) d.open = !!any;
    });
    form.shown.value = shown + ' shown';
  }
  form.addEventListener('input', apply);
  form.addEventListener('change', apply);
  document.addEventListener('click', function (e) {
    var b = e.target.closest && e.target.closest('button.copy');
    if (!b) return;
    var text = b.getAttribute('data-copy');
    var done = function () { b.textContent = 'copied'; setTimeout(function () { b.textContent = 'copy'; }, 1500); };
    if (navigator.clipboard) navigator.clipboard.writeText(text).then(done, function () { b.textContent = 'select and copy'; });
    else b.textContent = 'select and copy';
  });
  apply();
})();
`;
