/**
 * The dashboard's one stylesheet, served as /dashboard.css (the policy allows no inline
 * style): system fonts, no width wider than the screen, text at least 14 px, a visible
 * focus ring, and the system's dark mode.
 */
export const DASHBOARD_CSS = `
:root{color-scheme:light dark;--bg:#f6f7f9;--card:#fff;--ink:#1b1f24;--muted:#4f5a66;--line:#d3d9e0;--accent:#0b57d0;--good:#146c2e;--bad:#b3261e;--warn:#8a5300}
@media (prefers-color-scheme:dark){:root{--bg:#111418;--card:#1b2027;--ink:#e8eaed;--muted:#aab4bf;--line:#38414c;--accent:#8ab4f8;--good:#7fd18b;--bad:#f2a7a1;--warn:#f0c267}}
*{box-sizing:border-box}
html{font-size:16px}
body{margin:0;background:var(--bg);color:var(--ink);font:1rem/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;overflow-wrap:anywhere}
header.top{display:flex;flex-wrap:wrap;gap:8px 16px;align-items:center;justify-content:space-between;padding:12px 16px;border-bottom:1px solid var(--line);background:var(--card)}
header.top h1{font-size:1.25rem;margin:0}
main{max-width:1200px;margin:0 auto;padding:16px}
a{color:var(--accent)}
:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
button,input,select{font:inherit;color:inherit}
button,.button{display:inline-block;padding:6px 14px;border-radius:6px;border:1px solid var(--line);background:var(--card);cursor:pointer;text-decoration:none;color:var(--ink);min-height:36px}
button.danger{border-color:var(--bad);color:var(--bad)}
button.primary{background:var(--accent);border-color:var(--accent);color:var(--bg)}
form.filters{display:flex;flex-wrap:wrap;gap:8px;align-items:end;margin:0 0 16px}
form.filters label{display:flex;flex-direction:column;font-size:.875rem;color:var(--muted)}
form.filters input,form.filters select{padding:6px 8px;border:1px solid var(--line);border-radius:6px;background:var(--card);min-height:36px;max-width:100%}
ul.campaigns{list-style:none;margin:0;padding:0;display:grid;gap:12px}
article.campaign{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:12px 14px}
article.campaign h2{font-size:1.1rem;margin:0 0 4px}
.phase{display:inline-block;font-size:.875rem;font-weight:600;padding:1px 8px;border-radius:999px;border:1px solid currentColor;margin-right:6px}
.phase-sending{color:var(--good)}.phase-paused{color:var(--warn)}.phase-waiting{color:var(--muted)}.phase-draft{color:var(--muted)}.phase-finished{color:var(--ink)}.phase-cancelled{color:var(--bad)}.phase-failed{color:var(--bad)}
.why{color:var(--muted);font-size:.875rem}
progress{width:100%;height:14px;margin:8px 0 2px;accent-color:var(--accent)}
dl.figures{display:grid;grid-template-columns:repeat(auto-fill,minmax(120px,1fr));gap:6px 12px;margin:8px 0}
dl.figures div{min-width:0}
dl.figures dt{font-size:.8125rem;color:var(--muted)}
dl.figures dd{margin:0;font-weight:600;font-variant-numeric:tabular-nums}
.controls{display:flex;flex-wrap:wrap;gap:8px;margin-top:8px}
.controls form{margin:0}
.notice{padding:10px 12px;border-radius:8px;border:1px solid var(--line);background:var(--card);margin:0 0 12px}
.signin{max-width:420px;margin:48px auto;background:var(--card);border:1px solid var(--line);border-radius:10px;padding:20px}
.signin input{width:100%;padding:8px;border:1px solid var(--line);border-radius:6px;background:var(--bg);margin:6px 0 12px}
table{border-collapse:collapse;max-width:100%}
td,th{padding:4px 8px;border-bottom:1px solid var(--line);text-align:left}
:root{background:var(--bg);color:var(--ink)}
section.panel{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:12px 14px;margin:12px 0}
section.panel h2{font-size:1.1rem;margin:0 0 8px}
.report{margin-top:16px}
.report section{background:var(--card);box-shadow:none;border:1px solid var(--line)}
.report .figure{background:var(--bg)}
.report dt,.report .meta,.report .note,.report .empty,.report .zone,.report td.meaning{color:var(--muted)}
.report th,.report td{border-bottom-color:var(--line)}
.report figure.chart svg{background:#fff;border-radius:6px}
.report dd{font-size:1.25rem}
.sr-only{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
`;
