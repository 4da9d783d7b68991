// The status page: polls status.json (only the points after the last one it has) and redraws.
'use strict';

const POLL_MS = 1000;
const COLORS = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#17becf',
  '#bcbd22', '#7f7f7f'];
const history = { time: [], rate: [], queued: [], ready: [], outcomes: {} };
const charts = {};
let since = 0;
let last = null;

function num(v) { return typeof v === 'string' ? Number(v) : v; }   // Jackson writes Infinity as "Infinity"

function grouped(n) { return Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : String(n); }

function percent(f) {
  if (!Number.isFinite(f)) return '?';
  const p = f * 100;
  if (p === 0) return '0%';
  return (p >= 0.95 ? p.toFixed(0) : p.toPrecision(1)) + '%';
}

function bytes(n) {
  const units = [' B', ' kB', ' MB', ' GB', ' TB'];
  let v = n, u = 0;
  while (v >= 1000 && u < units.length - 1) { v /= 1000; u++; }
  return (u === 0 ? v : v.toFixed(v < 10 ? 1 : 0)) + units[u];
}

function duration(s) {
  s = Math.floor(s);
  const h = Math.floor(s / 3600), m = Math.floor(s / 60) % 60, sec = s % 60;
  return h > 0 ? `${h}h ${String(m).padStart(2, '0')}m ${String(sec).padStart(2, '0')}s`
    : m > 0 ? `${m}m ${String(sec).padStart(2, '0')}s` : `${sec}s`;
}

function cell(tr, text, cls) {
  const td = document.createElement('td');
  td.textContent = text;
  if (cls) td.className = cls;
  tr.appendChild(td);
  return td;
}

/** Every figure of the report: [id, label, raw value, shown text]. The browser test compares the raw values. */
function figures(r) {
  const c = r.crawl, f = r.frontier, s = r.seen, rows = [];
  rows.push(['pages', 'pages settled', c.pages, grouped(c.pages)]);
  rows.push(['pages-per-second', 'pages/s (last interval)', r.pagesPerSecond, r.pagesPerSecond.toFixed(1)]);
  rows.push(['average-pages-per-second', 'pages/s (this run)', r.averagePagesPerSecond,
    r.averagePagesPerSecond.toFixed(1)]);
  rows.push(['bytes', 'body bytes', c.bytes, bytes(c.bytes)]);
  for (const [k, v] of Object.entries(c.statuses)) rows.push(['status-' + k, k + ' responses', v, grouped(v)]);
  for (const [k, v] of Object.entries(c.outcomes)) {
    if (v > 0) rows.push(['outcome-' + k.toLowerCase(), 'outcome ' + k.toLowerCase(), v, grouped(v)]);
  }
  for (const [k, v] of Object.entries(c.links)) {
    if (v > 0) rows.push(['links-' + k.toLowerCase(), 'links ' + k.toLowerCase().replace(/_/g, ' '), v, grouped(v)]);
  }
  rows.push(['robots-fetches', 'robots.txt fetches', c.robotsFetches, grouped(c.robotsFetches)]);
  if (f) {
    rows.push(['frontier-urls', 'frontier URLs', f.queuedUrls, grouped(f.queuedUrls)]);
    rows.push(['frontier-hosts', 'frontier hosts', f.hosts, grouped(f.hosts)]);
    rows.push(['frontier-ready-hosts', 'ready hosts', f.readyHosts, grouped(f.readyHosts)]);
    rows.push(['frontier-leased-urls', 'leased URLs', f.leasedUrls, grouped(f.leasedUrls)]);
  }
  if (s) {
    rows.push(['seen-checks', 'URL-seen checks', s.checks, grouped(s.checks)]);
    rows.push(['seen-new', 'new URLs', s.newUrls, grouped(s.newUrls)]);
    rows.push(['seen-duplicates', 'duplicates', s.seen, grouped(s.seen)]);
    rows.push(['seen-filters', 'filters stacked', s.filters, grouped(s.filters)]);
    rows.push(['seen-fill', 'filter fill', num(s.fillRatio), percent(num(s.fillRatio))]);
    rows.push(['seen-estimated-rate', 'est. false-positive rate', num(s.estimatedRate), percent(num(s.estimatedRate))]);
    rows.push(['seen-verified-false-positives', 'false positives verified', s.caughtFalsePositives,
      grouped(s.caughtFalsePositives)]);
    rows.push(['seen-estimated-skips', 'est. pages skipped by false positives', num(s.estimatedSkips),
      grouped(num(s.estimatedSkips))]);
  }
  return rows;
}

function showFigures(r) {
  const body = document.querySelector('#figures tbody');
  body.textContent = '';
  for (const [id, label, raw, text] of figures(r)) {
    const tr = document.createElement('tr');
    cell(tr, label);
    const td = cell(tr, text, 'n');
    td.id = 'fig-' + id;
    td.dataset.value = String(raw);
    body.appendChild(tr);
  }
}

function addHistory(points) {
  for (const p of points) {
    history.time.push(p.time);
    history.rate.push(p.pagesPerSecond);
    history.queued.push(p.queuedUrls < 0 ? null : p.queuedUrls);
    history.ready.push(p.readyHosts < 0 ? null : p.readyHosts);
    for (const [k, v] of Object.entries(p.outcomes)) {
      if (!history.outcomes[k]) history.outcomes[k] = new Array(history.time.length - 1).fill(0);
      history.outcomes[k].push(v);
    }
    since = p.time;
  }
}

function width(el) { return Math.max(400, el.clientWidth || 600); }

function chart(name, opts, data) {
  const el = document.getElementById('chart-' + name);
  if (!charts[name] || charts[name].series.length !== opts.series.length) {
    if (charts[name]) charts[name].destroy();
    charts[name] = new uPlot(Object.assign({ width: width(el), height: 240 }, opts), data, el);
  } else {
    charts[name].setData(data);
  }
}

function drawTimeCharts() {
  const t = history.time;
  chart('rate', { series: [{}, { label: 'pages/s', stroke: COLORS[0], width: 2 }] }, [t, history.rate]);
  // Only outcomes that happened: eighteen flat zero lines would hide the ones that matter.
  const kinds = Object.keys(history.outcomes).filter(k => history.outcomes[k].some(v => v > 0));
  chart('outcomes', {
    series: [{}, ...kinds.map((k, i) => ({ label: k.toLowerCase(), stroke: COLORS[i % COLORS.length], width: 2 }))]
  }, [t, ...kinds.map(k => history.outcomes[k])]);
  chart('frontier', {
    series: [{}, { label: 'queued URLs', stroke: COLORS[0], width: 2, scale: 'urls' },
      { label: 'ready hosts', stroke: COLORS[2], width: 2, scale: 'hosts' }],
    axes: [{}, { scale: 'urls' }, { scale: 'hosts', side: 1, grid: { show: false } }]
  }, [t, history.queued, history.ready]);
}

/** p = (1 - e^(-kn/m))^k, the standard filter's false-positive rate with n keys. */
function curve(m, k, n) { return Math.pow(-Math.expm1(-k * n / m), k); }

function drawFilter(stack) {
  if (!stack || stack.length === 0) return;
  const filters = stack.map(f => ({ m: f.bits, k: f.hashes, capacity: f.capacity, n: num(f.estimatedKeys) }));
  let xmax = 0;
  for (const f of filters) xmax = Math.max(xmax, 2 * f.capacity, Number.isFinite(f.n) ? 1.25 * f.n : 0);
  const xs = [];
  for (let i = 0; i <= 240; i++) xs.push(xmax * i / 240);
  for (const f of filters) if (Number.isFinite(f.n)) xs.push(f.n);
  xs.sort((a, b) => a - b);
  const data = [xs];
  const series = [{ label: 'keys n' }];
  filters.forEach((f, i) => {
    const color = COLORS[i % COLORS.length];
    data.push(xs.map(x => curve(f.m, f.k, x)));
    series.push({ label: `filter ${i + 1} (m=${grouped(f.m)}, k=${f.k})`, stroke: color, width: 2 });
    data.push(xs.map(x => (x === f.n ? curve(f.m, f.k, x) : null)));
    series.push({ label: `filter ${i + 1} now`, stroke: color, fill: color, paths: () => null,
      points: { show: true, size: 10, stroke: color, fill: color } });
  });
  const capacities = filters.map((f, i) => [f.capacity, COLORS[i % COLORS.length]]);
  chart('filter', {
    series,
    scales: { x: { time: false } },
    axes: [{ label: 'keys n' }, { label: 'p', values: (u, ticks) => ticks.map(v => percent(v)) }],
    hooks: { draw: [u => {
      const ctx = u.ctx;
      ctx.save();
      ctx.setLineDash([6, 4]);
      ctx.lineWidth = 1.5;
      for (const [cap, color] of capacities) {
        const x = u.valToPos(cap, 'x', true);
        ctx.strokeStyle = color;
        ctx.beginPath();
        ctx.moveTo(x, u.bbox.top);
        ctx.lineTo(x, u.bbox.top + u.bbox.height);
        ctx.stroke();
      }
      ctx.restore();
    }] }
  }, data);
  document.getElementById('filter-caption').textContent = filters.map((f, i) =>
    `filter ${i + 1}: n ≈ ${grouped(f.n)} of capacity ${grouped(f.capacity)}, p ≈ ${percent(curve(f.m, f.k, f.n))}`)
    .join('; ');
}

function hostTable(id, hosts, columns) {
  const table = document.getElementById(id);
  table.textContent = '';
  if (hosts.length === 0) {
    const tr = table.insertRow();
    cell(tr, 'none', 'empty');
    return;
  }
  for (const h of hosts) {
    const tr = table.insertRow();
    cell(tr, h.host);
    for (const [fn, cls] of columns) cell(tr, fn(h), cls);
  }
}

function showHosts(board, suspendAfter) {
  hostTable('hosts-busiest', board.busiest, [[h => grouped(h.pages) + ' pages', 'n']]);
  hostTable('hosts-slowest', board.slowest, [[h => (h.meanFetchSeconds * 1000).toFixed(0) + ' ms', 'n']]);
  const failing = [[h => h.failuresInARow + ' failed', 'n'], [h => h.lastError || '']];
  hostTable('hosts-backing-off', board.backingOff, failing);
  hostTable('hosts-suspended', board.suspended, failing);
  const errors = document.getElementById('errors');
  errors.textContent = '';
  if (board.latestErrors.length === 0) cell(errors.insertRow(), 'none', 'empty');
  for (const e of board.latestErrors) {
    const tr = errors.insertRow();
    cell(tr, e.time.replace('T', ' ').replace(/\.\d+Z$/, 'Z'));
    cell(tr, e.outcome.toLowerCase() + (e.httpStatus ? ' ' + e.httpStatus : ''));
    cell(tr, e.url);
    cell(tr, e.detail || '');
  }
}

/** Pixels of a series' colour in the plot area: proof that a chart drew its data, read by the browser test. */
function drawnPixels(u) {
  const { left, top, width: w, height: h } = u.bbox;
  if (w <= 0 || h <= 0) return 0;
  const px = u.ctx.getImageData(left, top, w, h).data;
  const wanted = u.series.slice(1).map(s => typeof s.stroke === 'function' ? s.stroke(u, 1) : s.stroke)
    .filter(Boolean).map(c => [parseInt(c.slice(1, 3), 16), parseInt(c.slice(3, 5), 16), parseInt(c.slice(5, 7), 16)]);
  let count = 0;
  for (let i = 0; i < px.length; i += 4) {
    if (px[i + 3] < 128) continue;
    for (const [r, g, b] of wanted) {
      if (Math.abs(px[i] - r) + Math.abs(px[i + 1] - g) + Math.abs(px[i + 2] - b) < 60) { count++; break; }
    }
  }
  return count;
}

function selfCheck(doc) {
  const check = { reportTime: doc.report.time, figures: {}, charts: {}, filter: [] };
  for (const [id, , raw] of figures(doc.report)) check.figures[id] = raw;
  for (const [name, u] of Object.entries(charts)) {
    const points = u.data.slice(1).reduce((n, s) => n + s.filter(v => v !== null && v !== undefined).length, 0);
    check.charts[name] = { series: u.series.length - 1, points, pixels: drawnPixels(u) };
  }
  const f = charts.filter;
  if (f) {
    for (let s = 2; s < f.data.length; s += 2) {
      const i = f.data[s].findIndex(v => v !== null);
      if (i >= 0) check.filter.push({ filter: s / 2, n: f.data[0][i], p: f.data[s][i] });
    }
  }
  const out = document.getElementById('self-check');
  out.textContent = JSON.stringify(check);
  out.dataset.reportTime = doc.report.time;
}

function update(doc) {
  addHistory(doc.history);
  document.getElementById('about').textContent = `crawler ${doc.version} · ${doc.dataDir} · up ${duration(doc.uptimeSeconds)}`
    + (doc.report ? ` · last report ${doc.report.time.replace('T', ' ').replace(/\.\d+Z$/, 'Z')}` : '');
  document.getElementById('config').textContent = doc.config;
  showHosts(doc.hosts, doc.suspendAfter);
  if (!doc.report) return;
  last = doc;
  showFigures(doc.report);
  drawTimeCharts();
  if (doc.report.seen) drawFilter(doc.report.seen.stack);
  selfCheck(doc);
}

async function poll() {
  try {
    const response = await fetch('status.json?since=' + since, { cache: 'no-store' });
    update(await response.json());
  } catch (e) {
    document.getElementById('about').textContent = 'The crawl does not answer (' + e.message + '); it may have ended.'
      + (last ? ' Last report: ' + last.report.time : '');
  } finally {
    setTimeout(poll, POLL_MS);
  }
}

poll();
