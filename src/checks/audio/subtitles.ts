// Small validators for the two subtitle formats the audio endpoints return (response_format srt and
// vtt). Hand-written on purpose: the rules checked are few (numbered cues and their timing lines),
// and a full subtitle library would accept much more than the formats allow.
//
// SubRip (.srt): cues separated by blank lines; each cue is a sequence number (1, 2, 3, …), a timing
// line `HH:MM:SS,mmm --> HH:MM:SS,mmm`, and one or more lines of text.
// WebVTT (W3C WebVTT, "file structure"): the body starts with `WEBVTT` (optionally after a BOM), then
// a space, tab or line end; blocks are separated by blank lines; a cue is an optional identifier line
// (without `-->`), a timing line `[HH:]MM:SS.mmm --> [HH:]MM:SS.mmm [settings]`, and payload lines.
// NOTE, STYLE and REGION blocks are allowed.

export interface SubtitleProblem {
  /** 1-based line of the body. */
  line: number;
  message: string;
  actual?: string;
}

export interface SubtitleReport {
  cues: number;
  problems: SubtitleProblem[];
}

interface Block {
  line: number;
  lines: string[];
}

function blocksOf(text: string, firstLine = 1): Block[] {
  const lines = text.split('\n');
  const blocks: Block[] = [];
  let current: Block | undefined;
  lines.forEach((l, i) => {
    if (l.trim() === '') {
      current = undefined;
      return;
    }
    if (!current) blocks.push((current = { line: firstLine + i, lines: [] }));
    current.lines.push(l);
  });
  return blocks;
}

function normalise(body: string): string {
  return body.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
}

const SRT_TIME = String.raw`(\d{2,}):([0-5]\d):([0-5]\d),(\d{3})`;
const SRT_TIMING = new RegExp(String.raw`^${SRT_TIME} --> ${SRT_TIME}[ \t]*$`);

function ms(h: string, m: string, s: string, f: string): number {
  return ((Number(h) * 60 + Number(m)) * 60 + Number(s)) * 1000 + Number(f);
}

export function validateSrt(body: string): SubtitleReport {
  const problems: SubtitleProblem[] = [];
  const blocks = blocksOf(normalise(body));
  blocks.forEach((b, i) => {
    const [number, timing, ...text] = b.lines;
    if (!/^\d+$/.test(number!.trim()) || Number(number) !== i + 1) {
      problems.push({ line: b.line, message: `cue ${i + 1} must start with its sequence number ${i + 1}`, actual: number! });
      return;
    }
    const m = timing === undefined ? null : SRT_TIMING.exec(timing);
    if (!m) {
      problems.push({ line: b.line + 1, message: `cue ${i + 1} needs a timing line HH:MM:SS,mmm --> HH:MM:SS,mmm`, actual: timing ?? '(missing)' });
      return;
    }
    if (ms(m[5]!, m[6]!, m[7]!, m[8]!) < ms(m[1]!, m[2]!, m[3]!, m[4]!)) problems.push({ line: b.line + 1, message: `cue ${i + 1} ends before it starts`, actual: timing! });
    if (text.length === 0) problems.push({ line: b.line + 2, message: `cue ${i + 1} has no text`, actual: '(missing)' });
  });
  return { cues: blocks.length, problems };
}

const VTT_TIME = String.raw`(?:(\d{2,}):)?([0-5]\d):([0-5]\d)\.(\d{3})`;
const VTT_TIMING = new RegExp(String.raw`^${VTT_TIME}[ \t]+-->[ \t]+${VTT_TIME}(?:[ \t]+.*)?$`);

export function validateVtt(body: string): SubtitleReport {
  const text = normalise(body);
  const problems: SubtitleProblem[] = [];
  const lines = text.split('\n');
  if (!/^WEBVTT(?:[ \t].*)?$/.test(lines[0] ?? '')) {
    problems.push({ line: 1, message: 'a WebVTT body starts with the line WEBVTT', actual: (lines[0] ?? '').slice(0, 60) });
    return { cues: 0, problems };
  }
  // The header runs up to the first blank line.
  let i = 1;
  while (i < lines.length && lines[i]!.trim() !== '') i++;
  let cues = 0;
  for (const b of blocksOf(lines.slice(i).join('\n'), i + 1)) {
    const first = b.lines[0]!;
    if (/^(NOTE|STYLE|REGION)(?:[ \t].*)?$/.test(first) && !first.includes('-->')) continue;
    const timingAt = first.includes('-->') ? 0 : 1;
    const timing = b.lines[timingAt];
    const m = timing === undefined ? null : VTT_TIMING.exec(timing);
    if (!m) {
      problems.push({ line: b.line + timingAt, message: 'a cue needs a timing line [HH:]MM:SS.mmm --> [HH:]MM:SS.mmm', actual: timing ?? `(missing after identifier ${JSON.stringify(first)})` });
      continue;
    }
    cues++;
    if (ms(m[5] ?? '0', m[6]!, m[7]!, m[8]!) < ms(m[1] ?? '0', m[2]!, m[3]!, m[4]!)) problems.push({ line: b.line + timingAt, message: 'the cue ends before it starts', actual: timing! });
  }
  return { cues, problems };
}
