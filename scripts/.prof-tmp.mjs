import puppeteer from 'puppeteer-core';
const [,, url, who] = process.argv;
const base0 = new URL(url).origin;
let authJson = null;
if (who) {
  const r = await fetch(base0 + '/v1/rest-auth/app/login/', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'owner@portolan.demo', password: 'Portolan demo owner 2026' }) });
  const { token } = await r.json();
  const me = await (await fetch(base0 + '/v1/rest-auth/user/', { headers: { authorization: 'Bearer ' + token } })).json();
  authJson = JSON.stringify({ state: { userToken: token, user: { user_id: me.user_id, email: me.email, can_create_client: me.can_create_client }, avatarURL: null, current_client: null, role: { userRole: null, currentEditClientId: null }, ps_current_channel: {}, org: { current: null, list: [], param: null } }, version: 1 });
}
const browser = await puppeteer.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
const page = await browser.newPage();
await page.setViewport({ width: 412, height: 823, deviceScaleFactor: 1.75, isMobile: true });
await page.goto(base0 + '/v1/health');
await page.evaluate((v) => { localStorage.clear(); if (v) localStorage.setItem('auth', v); }, authJson);
const cdp = await page.createCDPSession();
await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
await cdp.send('Profiler.enable');
await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
await cdp.send('Profiler.start');
await page.goto(url, { waitUntil: 'load' });
await new Promise((r) => setTimeout(r, 6000));
const { profile } = await cdp.send('Profiler.stop');
await browser.close();
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const key = (n) => `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.replace(/.*\//, '')}:${n.callFrame.lineNumber}`;
const stackOf = (id) => { const out = []; for (let cur = id; cur; cur = parent.get(cur)) out.push(key(byId.get(cur))); return out; };
// Group consecutive samples whose stack has performWorkUntilDeadline into tasks.
let t = profile.startTime; const tasks = []; let cur = null;
profile.samples.forEach((id, i) => {
  t += profile.timeDeltas[i];
  const st = stackOf(id);
  const inTask = st.some((k) => k.startsWith('performWorkUntilDeadline'));
  if (inTask) { if (!cur) { cur = { start: t, samples: [] }; tasks.push(cur); } cur.samples.push({ st, d: (profile.timeDeltas[i + 1] ?? 0) / 1000 }); cur.end = t; }
  else if (!st.every((k) => k.startsWith('(idle)') || k.startsWith('(root)'))) { cur = null; } else cur = null;
});
tasks.sort((a, b) => (b.end - b.start) - (a.end - a.start));
for (const task of tasks.slice(0, 2)) {
  const total = new Map();
  for (const { st, d } of task.samples) for (const k of new Set(st)) total.set(k, (total.get(k) ?? 0) + d);
  console.log(`TASK ${((task.end - task.start) / 1000).toFixed(0)}ms at ${((task.start - profile.startTime) / 1000).toFixed(0)}`);
  console.log([...total].sort((a, b) => b[1] - a[1]).slice(0, 70).map(([k, v]) => `${v.toFixed(0).padStart(6)} ${k}`).join('\n'));
}
