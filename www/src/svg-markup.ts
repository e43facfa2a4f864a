//! SVG as plain data, written out as the text of a file, for images that never go on the page
//! (the stack-history figure): built and tested without a DOM. Text and attribute values are
//! escaped, and characters XML does not allow are dropped, so a kernel title from a stranger's
//! link cannot break the file or add markup to it.

export interface SvgNode {
  tag: string;
  attrs: Record<string, string | number>;
  children: (SvgNode | string)[];
}

/** An SVG file's text and its size in user units (a PNG is drawn from it at a multiple of that). */
export interface SvgImage { text: string; width: number; height: number }

export function node(tag: string, attrs: Record<string, string | number> = {}, ...children: (SvgNode | string)[]): SvgNode {
  return { tag, attrs, children };
}

// XML 1.0 allows tab, newline and carriage return below U+0020, and neither U+FFFE nor U+FFFF.
const NOT_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g;

function escape(text: string): string {
  return text.replace(NOT_XML, '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

export function markup(n: SvgNode | string): string {
  if (typeof n === 'string') return escape(n);
  const attrs = Object.entries(n.attrs).map(([k, v]) => ` ${k}="${escape(String(v))}"`).join('');
  return n.children.length ? `<${n.tag}${attrs}>${n.children.map(markup).join('')}</${n.tag}>` : `<${n.tag}${attrs}/>`;
}
