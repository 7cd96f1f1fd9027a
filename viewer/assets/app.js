// memdir ui: the viewer's only script. No build step, no dependencies.
// It never turns text into markup: pages come from the server already
// escaped, and are moved in as parsed nodes.
'use strict';
(function () {
  function bind(root) {
    root.querySelectorAll('form[data-confirm]').forEach(function (f) {
      f.addEventListener('submit', function (e) {
        if (!window.confirm(f.dataset.confirm)) e.preventDefault();
      });
    });
  }

  function parse(html) {
    return new DOMParser().parseFromString(html, 'text/html');
  }

  // Project switcher: choosing a project goes there.
  var sw = document.querySelector('form.switch select');
  if (sw) {
    sw.addEventListener('change', function () { sw.form.submit(); });
    var go = document.querySelector('form.switch .go');
    if (go) go.hidden = true;
  }
  bind(document);

  // Search as you type: the results part of the page, fetched small.
  var form = document.getElementById('search');
  if (form) {
    var timer = 0, ctrl = null;
    var run = function () {
      var params = new URLSearchParams(new FormData(form));
      history.replaceState(null, '', form.action + '?' + params.toString());
      params.set('partial', '1');
      if (ctrl) ctrl.abort();
      ctrl = new AbortController();
      fetch(form.action + '?' + params.toString(), { signal: ctrl.signal, credentials: 'same-origin' })
        .then(function (r) { return r.ok ? r.text() : null; })
        .then(function (html) {
          if (html === null) return;
          var results = document.getElementById('results');
          results.replaceChildren.apply(results, Array.from(parse(html).body.childNodes));
          document.body.dataset.searched = params.get('q');
        })
        .catch(function () {});
    };
    form.addEventListener('input', function () {
      clearTimeout(timer);
      timer = setTimeout(run, 120);
    });
    form.addEventListener('submit', function (e) { e.preventDefault(); run(); });
  }

  // Live: the server says when memory changed; the page fetches itself
  // again and swaps its main part in place.
  var src = document.body.dataset.live;
  if (src && window.EventSource) {
    var busy = false, again = false;
    var refresh = function () {
      if (busy) { again = true; return; }
      busy = true;
      fetch(location.href, { credentials: 'same-origin' })
        .then(function (r) { return r.ok ? r.text() : null; })
        .then(function (html) {
          if (html === null) return;
          var main = parse(html).querySelector('main');
          var open = Array.from(document.querySelectorAll('main details[open] summary')).map(function (s) { return s.textContent; });
          if (main) {
            main.querySelectorAll('details summary').forEach(function (s) {
              if (open.indexOf(s.textContent) >= 0) s.parentNode.open = true;
            });
            document.querySelector('main').replaceWith(document.adoptNode(main));
            bind(document.querySelector('main'));
            document.body.dataset.updated = String(Date.now());
          }
        })
        .catch(function () {})
        .finally(function () {
          busy = false;
          if (again) { again = false; refresh(); }
        });
    };
    var es = new EventSource(src);
    es.onmessage = refresh;
    es.onopen = function () { document.body.dataset.listening = '1'; };
  }
})();
