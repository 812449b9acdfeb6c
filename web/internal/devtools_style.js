// The devtools panel's look (web/devtools.js). It lives in the panel's shadow root: the page's
// styles never reach the panel, and these never reach the page.

export const PANEL_STYLE = `
:host { all: initial; }
.panel { position: fixed; right: 8px; bottom: 8px; z-index: 2147483000; width: min(720px, calc(100vw - 16px));
  height: min(460px, calc(100vh - 16px)); display: flex; flex-direction: column; background: #14161b; color: #d8dde6;
  font: 12px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; border: 1px solid #4c5566; border-radius: 6px;
  overflow: hidden; contain: content; will-change: transform; }
.panel.collapsed { height: auto; }
.panel.collapsed .body { display: none; }
header { display: flex; align-items: center; gap: 4px; padding: 4px 6px; background: #1c1f26; border-bottom: 1px solid #2e333d; }
header .title { font-weight: bold; margin-right: 8px; color: #8fd3ff; white-space: nowrap; }
header .spacer { flex: 1; }
button { font: inherit; color: inherit; background: #262a33; border: 1px solid #3a404c; border-radius: 3px; padding: 1px 8px; cursor: pointer; }
button:hover { background: #313745; }
button[aria-selected="true"], button[aria-pressed="true"] { background: #2f4a63; border-color: #4c7aa3; }
button:disabled { opacity: .45; cursor: default; }
.badge { display: inline-block; min-width: 14px; padding: 0 4px; margin-left: 4px; border-radius: 7px; background: #a3423a; color: #fff; font-size: 10px; }
.body { flex: 1; overflow: auto; padding: 6px 8px; }
section[hidden] { display: none; }
h3 { margin: 8px 0 4px; font-size: 12px; color: #8fd3ff; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: 1px 6px 1px 0; vertical-align: top; }
th { color: #8d96a7; font-weight: normal; }
td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; }
.muted { color: #8d96a7; }
.error { color: #ff8c7a; white-space: pre-wrap; }
input { font: inherit; color: inherit; background: #0f1115; border: 1px solid #3a404c; border-radius: 3px; padding: 1px 4px; }
input.find { width: calc(100% - 80px); }
input.value { width: 140px; height: 21px; box-sizing: border-box; contain: strict; position: relative; }
/* The live values are drawn on a canvas behind the inputs (devtools_values.js): an input shows
   text only while it is being edited. */
input.value:not(:focus) { color: transparent; background: transparent; }
.value-box { position: relative; }
.value-box > canvas.values { position: absolute; left: 0; top: 0; pointer-events: none; }
.entities { display: grid; grid-template-columns: minmax(140px, 1fr) 2fr; gap: 8px; }
.list { max-height: 300px; overflow: auto; border-right: 1px solid #2e333d; }
.list button { display: block; width: 100%; text-align: left; border: 0; background: none; padding: 0 4px; }
.list button[aria-selected="true"] { background: #2f4a63; }
.component { margin-bottom: 6px; }
.component .name { color: #ffd58f; }
.pill { display: inline-block; padding: 0 5px; margin: 0 3px 2px 0; border-radius: 3px; background: #262a33; }
.pill.w { background: #4a2f2f; }
.pill.r { background: #26364a; }
.pill.t { background: #2f4a36; }
.wave { margin-bottom: 8px; border-left: 3px solid #4c7aa3; padding-left: 6px; }
.timeline { position: relative; contain: content; }
.lane { position: relative; height: 18px; margin: 2px 0 2px 64px; background: #1b1e25; }
.lane .label { position: absolute; left: -64px; width: 60px; text-align: right; color: #8d96a7; }
.bar { position: absolute; top: 1px; height: 16px; box-sizing: border-box; overflow: hidden; white-space: nowrap;
  font-size: 10px; line-height: 16px; padding-left: 2px; border-right: 1px solid #14161b; cursor: default; }
.batch { background: #3f7fbf; color: #fff; }
.serial { background: #b0883c; color: #fff; }
.merge { background: #8a4fb0; color: #fff; }
.wait { background: #2c313b; color: #8d96a7; }
.frames { position: relative; height: 16px; margin-left: 64px; }
.frames .frame { position: absolute; top: 0; height: 14px; border-left: 1px solid #4c5566; padding-left: 2px; color: #8d96a7; font-size: 10px; overflow: hidden; white-space: nowrap; }
.tooltip { position: fixed; z-index: 2147483001; pointer-events: none; background: #0f1115; border: 1px solid #4c5566; padding: 4px 6px; border-radius: 3px; white-space: pre; }
.legend span { margin-right: 10px; }
.legend i { display: inline-block; width: 10px; height: 10px; margin-right: 3px; vertical-align: -1px; }
.diagnostic { border-bottom: 1px solid #262a33; padding: 2px 0; white-space: pre-wrap; }
`;
