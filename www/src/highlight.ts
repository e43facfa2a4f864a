//! Syntax highlighting for kernel files: the `//@` header lines and the SASS-style assembly
//! (opcodes with modifiers, registers, predicates and guards, hex numbers, address comments,
//! labels). A small stream tokenizer: it colours text, it does not parse the program.

import { HighlightStyle, StreamLanguage, syntaxHighlighting, type StringStream } from '@codemirror/language';
import { tags as t } from '@lezer/highlight';

interface St { inBlock: boolean; opcodeSeen: boolean; header: string | null }

const HEADER_KEYS = /^(title|about|warp|param|reg|buffer|model|preset|note)\b/;
const PROSE_KEYS = new Set(['title', 'about', 'note']);

function blockComment(s: StringStream, st: St): string {
  st.inBlock = !s.match(/^.*?\*\//);
  if (st.inBlock) s.skipToEnd();
  return 'comment';
}

function header(s: StringStream, st: St): string | null {
  if (s.eatSpace()) return null;
  if (PROSE_KEYS.has(st.header ?? '')) {
    // `note step 5:` / `note div 2:` / `note 0x0128:` / `note LABEL:` keep their target visible;
    // the caption is prose.
    if (st.header === 'note' && s.match(/^(step\s+\d+|(div|reconverge|join|spill|fill|exit)\s+\d+|0x[0-9a-fA-F]+|[.\w$]+)\s*:/)) return 'labelName';
    s.skipToEnd();
    return 'string';
  }
  if (s.match(/^0x[0-9a-fA-F]+/) || s.match(/^\d+(\.\d+)?/)) return 'number';
  if (s.match(/^(R\d+|RZ)\b/)) return 'variableName';
  if (s.match(/^(i32|u32|f32)\b/)) return 'typeName';
  if (s.match(/^[A-Za-z_]\w*/)) return 'variableName.special';
  s.next();
  return 'operator';
}

function token(s: StringStream, st: St): string | null {
  if (s.sol()) { st.opcodeSeen = false; st.header = null; }
  if (st.inBlock) return blockComment(s, st);
  if (st.header !== null) return header(s, st);
  if (s.eatSpace()) return null;
  if (s.match(/^\/\/@\s*/)) {
    const key = s.match(HEADER_KEYS) as RegExpMatchArray | null;
    st.header = key ? key[1] : '';
    return 'meta';
  }
  if (s.match(/^\/\/.*/)) return 'comment';
  if (s.match(/^\/\*\s*[0-9a-fA-F]+\s*\*\//)) return 'meta';       // /*0118*/ address
  if (s.match(/^\/\*/)) return blockComment(s, st);
  if (s.sol() && s.match(/^\d+(?=\s)/)) return 'lineComment';         // leading line number
  if (s.match(/^[•.](\s*[•.])+/)) return 'comment';                  // "• • •" elided lines
  if (s.match(/^@!?(P[0-6]|PT)\b/)) return 'modifier';        // guard
  if (!st.opcodeSeen && s.match(/^[A-Za-z_.$][\w.$]*:/)) return 'labelName';
  if (!st.opcodeSeen && s.match(/^[A-Z][A-Z0-9]*(\.[A-Z0-9_]+)*/)) { st.opcodeSeen = true; return 'keyword'; }
  if (s.match(/^!?(P[0-6]|PT)\b/)) return 'atom';
  if (s.match(/^(R\d{1,3}|RZ)\b/)) return 'variableName';
  if (s.match(/^SR_\w+(\.\w+)?/)) return 'variableName.special';
  if (s.match(/^-?0x[0-9a-fA-F]+/) || s.match(/^-?\d+(\.\d+)?([eE][-+]?\d+)?/)) return 'number';
  if (s.match(/^`?\(?[A-Za-z_.$][\w.$]*\)?/)) return 'labelName';    // branch target label
  s.next();
  return 'punctuation';
}

export const sassLanguage = StreamLanguage.define<St>({
  name: 'sass',
  startState: () => ({ inBlock: false, opcodeSeen: false, header: null }),
  copyState: (st) => ({ ...st }),
  token,
  languageData: { commentTokens: { line: '//' } },
});

// Colours come from CSS variables (style.css), defined once for the whole app.
const style = HighlightStyle.define([
  { tag: t.keyword, color: 'var(--hl-opcode)', fontWeight: '600' },
  { tag: t.modifier, color: 'var(--hl-guard)', fontWeight: '600' },
  { tag: t.atom, color: 'var(--hl-pred)' },
  { tag: t.variableName, color: 'var(--hl-reg)' },
  { tag: t.special(t.variableName), color: 'var(--hl-special)' },
  { tag: t.number, color: 'var(--hl-number)' },
  { tag: t.comment, color: 'var(--hl-comment)', fontStyle: 'italic' },
  { tag: t.lineComment, color: 'var(--hl-comment)' },
  { tag: t.meta, color: 'var(--hl-meta)', fontWeight: '600' },
  { tag: t.labelName, color: 'var(--hl-label)' },
  { tag: t.string, color: 'var(--hl-prose)' },
  { tag: t.typeName, color: 'var(--hl-special)' },
]);

export const sassHighlighting = [sassLanguage, syntaxHighlighting(style)];
