import puppeteer from 'puppeteer-core';
const [,, url, who] = process.argv;
let authJson = null;
if (who) {
  const base0 = new URL(url).origin;
  const r = await fetch(base0 + '/v1/rest-auth/app/login/', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'owner@portolan.demo', password: 'Portolan demo owner 2026' }) });
  const { token } = await r.json();
  const me = await (await fetch(base0 + '/v1/rest-auth/user/', { headers: { authorization: 'Bearer ' + token } })).json();
  authJson = JSON.stringify({ state: { userToken: token, user: { user_id: me.user_id, email: me.email, can_create_client: me.can_create_client }, avatarURL: null, current_client: null, role: { userRole: null, currentEditClientId: null }, ps_current_channel: {}, org: { current: null, list: [], param: null } }, version: 1 });
}
const browser = await puppeteer.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
const page = await browser.newPage();
await page.setViewport({ width: 412, height: 823, deviceScaleFactor: 1.75, isMobile: true });
const base = new URL(url).origin;
await page.goto(base + '/v1/health');
await page.evaluate((v) => { localStorage.clear(); if (v) localStorage.setItem('auth', v); }, authJson || null);
const cdp = await page.createCDPSession();
await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
await page.tracing.start({ categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', 'blink.user_timing'] });
await page.goto(url, { waitUntil: 'load' });
await new Promise((r) => setTimeout(r, 6000));
const buf = await page.tracing.stop();
await browser.close();
const events = JSON.parse(Buffer.from(buf).toString("utf8")).traceEvents;
const main = events.find((e) => e.name === 'thread_name' && e.args.name === 'CrRendererMain');
const tid = main.tid, pid = main.pid;
const mine = events.filter((e) => e.pid === pid && e.tid === tid && e.ph === 'X');
const tasks = mine.filter((e) => e.name === 'RunTask' && e.dur > 30000).sort((a, b) => a.ts - b.ts);
const t0 = mine[0].ts;
let tbt = 0;
for (const t of tasks) {
  tbt += Math.max(0, t.dur / 1000 - 50);
  const kids = mine.filter((e) => e !== t && e.ts >= t.ts && e.ts + e.dur <= t.ts + t.dur && e.dur > 5000 && e.name !== 'RunTask');
  const top = kids.filter(e=>!/^V8\.|GC|MinorGC|MajorGC/.test(e.name)).sort((a, b) => b.dur - a.dur).slice(0, 5).map((e) => `${e.name}${e.args?.data?.url ? '(' + e.args.data.url.replace(/.*\//, '') + ')' : ''}${e.args?.data?.functionName ? '[' + e.args.data.functionName + ']' : ''}:${Math.round(e.dur / 1000)}`);
  console.log(`@${Math.round((t.ts - t0) / 1000)} ${Math.round(t.dur / 1000)}ms  ${top.join(' ')}`);
}
console.log('observed TBT (4x)', Math.round(tbt));
