// The report page's stylesheet, inlined: no file, no network. Status colours always come with a mark and a word.
export const PAGE_STYLE = `
:root { --fg: #1b1f24; --muted: #57606a; --line: #d0d7de; --bg: #fff; --pass: #1a7f37; --fail: #cf222e; --warn: #9a6700; --skip: #6e7781; --blocked: #8250df; --ne: #0969da; --error: #a40e26; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); background: var(--bg); margin: 0 auto; max-width: 1200px; padding: 1rem 1.5rem 4rem; }
h1.verdict { font-size: 1.8rem; margin: .2rem 0; }
.v-pass { color: var(--pass); } .v-fail { color: var(--fail); } .v-error { color: var(--error); }
.meta { display: grid; grid-template-columns: max-content 1fr; gap: .1rem 1rem; color: var(--muted); margin: .5rem 0; }
.meta dt { font-weight: 600; } .meta dd { margin: 0; }
nav { margin: .6rem 0; }
.badge { display: inline-block; border: 1px solid currentColor; border-radius: 1em; padding: 0 .55em; font-size: .85em; white-space: nowrap; }
.s-pass { color: var(--pass); } .s-fail { color: var(--fail); font-weight: 600; } .s-warn { color: var(--warn); } .s-skip { color: var(--skip); }
.s-blocked { color: var(--blocked); } .s-not-exercised { color: var(--ne); } .s-error { color: var(--error); font-weight: 600; }
.filters { position: sticky; top: 0; background: var(--bg); border-bottom: 1px solid var(--line); padding: .5rem 0; display: flex; flex-wrap: wrap; gap: .8rem; align-items: center; z-index: 1; }
.filters input[type=search] { min-width: 18rem; }
.card { border: 1px solid var(--line); border-left: 4px solid var(--fail); border-radius: 6px; padding: .6rem .9rem; margin: .8rem 0; }
.card[data-status=warn] { border-left-color: var(--warn); }
.card h3 { font-size: 1rem; margin: 0 0 .3rem; }
.where, .rules { color: var(--muted); margin: .2rem 0; }
.rules { padding-left: 1.2rem; }
pre { background: #f6f8fa; border: 1px solid var(--line); border-radius: 4px; padding: .5rem; overflow-x: auto; max-height: 24rem; white-space: pre-wrap; word-break: break-word; }
table { border-collapse: collapse; width: 100%; }
th, td { border-bottom: 1px solid var(--line); padding: .25rem .4rem; text-align: left; vertical-align: top; }
.findings code, .results code { word-break: break-all; }
.grid th { width: 9rem; white-space: nowrap; }
.cell { display: inline-block; width: 1.6rem; height: 1.6rem; line-height: 1.6rem; text-align: center; border: 1px solid currentColor; border-radius: 3px; margin: 1px; text-decoration: none; }
.legend .cell { width: auto; padding: 0 .4rem; }
.sr { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
.legend .sr, .legend .cell span { position: static; }
details.suite { margin: .3rem 0; }
details > summary { cursor: pointer; }
button.copy { font: inherit; font-size: .8em; }
:focus-visible { outline: 3px solid #0969da; outline-offset: 2px; }
[hidden] { display: none !important; }
`;
