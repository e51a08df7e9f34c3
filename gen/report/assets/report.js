// ddigen report: the version switch of a record page and the index's
// search-as-you-type. No network, no libraries: the site opens from file://.
'use strict';

function showVersion(v) {
  const has = (el) => (' ' + el.dataset.versions + ' ').indexOf(' ' + v + ' ') >= 0;
  document.querySelectorAll('section.arch').forEach((sec) => {
    let shown = 0;
    sec.querySelectorAll('svg.bytemap').forEach((svg) => {
      const on = has(svg);
      if (on) svg.removeAttribute('hidden'); else svg.setAttribute('hidden', '');
      shown += on ? 1 : 0;
    });
    const none = sec.querySelector('.nomap');
    if (none) none.hidden = shown > 0;
  });
  document.querySelectorAll('table.fields tbody tr[data-versions]').forEach((tr) => {
    tr.classList.toggle('absent', !has(tr));
  });
}

function setupVersionSwitch() {
  const select = document.getElementById('version');
  if (!select) return;
  const fromHash = /(?:^|[#&])v=([A-Za-z0-9_]+)/.exec(location.hash);
  if (fromHash) {
    for (const o of select.options) if (o.textContent === fromHash[1]) select.value = o.value;
  }
  select.addEventListener('change', () => showVersion(select.value));
  showVersion(select.value);
}

function setupSearch() {
  const input = document.getElementById('search');
  const data = document.getElementById('search-index');
  if (!input || !data) return;
  const index = JSON.parse(data.textContent);
  const results = document.getElementById('results');
  const groups = document.getElementById('groups');
  const count = document.getElementById('count');
  const run = () => {
    const q = input.value.trim().toLowerCase();
    results.textContent = '';
    if (!q) {
      results.hidden = true;
      groups.hidden = false;
      count.textContent = '';
      return;
    }
    const hits = index.filter((e) => e[0].toLowerCase().indexOf(q) >= 0);
    for (const e of hits.slice(0, 500)) {
      const li = document.createElement('li');
      li.className = e[1];
      const a = document.createElement('a');
      a.href = e[4];
      a.textContent = e[0];
      const kind = document.createElement('span');
      kind.className = 'kind';
      kind.textContent = ' ' + e[1] + ' ' + e[2] + ' ' + e[3];
      li.append(a, kind);
      results.append(li);
    }
    count.textContent = hits.length + (hits.length === 1 ? ' match' : ' matches');
    results.hidden = false;
    groups.hidden = true;
  };
  input.addEventListener('input', run);
  run();
}

document.addEventListener('DOMContentLoaded', () => {
  setupVersionSwitch();
  setupSearch();
});
