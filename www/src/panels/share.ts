//! The Share / embed dialog: the link to exactly this state, and an embed for a slide or a course
//! page: which panels, at which size (slide presets), the iframe snippet to paste, and a live
//! preview at that size (scaled to fit the dialog), so what the audience will see is checked here.

import type { PanelName } from '../permalink';
import { PANEL_INFO } from '../layout/panels';
import { html } from '../svg';

export const EMBED_SIZES = [
  { label: '800 × 450 (16:9 slide)', width: 800, height: 450 },
  { label: '1280 × 720 (full slide, 720p)', width: 1280, height: 720 },
  { label: '640 × 360 (half slide)', width: 640, height: 360 },
] as const;

/** The panels an embed offers, in the order the dialog lists them. */
const EMBED_PANELS: readonly PanelName[] = ['caption', 'cfg', 'lanes', 'stack', 'plot', 'registers', 'memory', 'output', 'metrics', 'editor', 'listing', 'cuda', 'ptx'];
export const DEFAULT_EMBED: readonly PanelName[] = ['caption', 'cfg', 'lanes', 'stack'];

/** The embed's address: the link with the panels it shows. */
export function embedUrl(link: string, panels: readonly PanelName[]): string {
  return `${link.replace(/&embed=[^&]*/, '')}&embed=${panels.join(',')}`;
}

/** Text for an HTML attribute value (the title comes from the user's kernel). */
function attr(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** The snippet to paste into a slide tool or a web page. */
export function iframeSnippet(url: string, width: number, height: number, title: string): string {
  return `<iframe src="${attr(url)}" width="${width}" height="${height}" title="${attr(`warpscope: ${title}`)}" style="border:0" loading="lazy" allowfullscreen></iframe>`;
}

export interface ShareHooks {
  /** The link to the state on screen (also put in the address bar). */
  link(): string;
  title(): string;
  /** Whether the kernel is compiled, C or PTX (its generated code can be embedded). */
  cKernel(): boolean;
  /** Whether the kernel is PTX or SASS (its CUDA source can be embedded). */
  ptxKernel(): boolean;
  /** Whether the kernel is SASS (its PTX can be embedded). */
  sassKernel(): boolean;
  copied(what: string, ok: boolean): void;
}

async function copy(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

export function open(dialog: HTMLDialogElement, hooks: ShareHooks): void {
  const link = hooks.link();
  const chosen = new Set<PanelName>(DEFAULT_EMBED);
  let size: (typeof EMBED_SIZES)[number] = EMBED_SIZES[0];

  const close = html('button', { type: 'button', class: 'dialog-close', 'aria-label': 'close' }, '✕');
  close.addEventListener('click', () => dialog.close());

  const linkBox = html('input', { type: 'text', readonly: '', value: link, class: 'share-text mono', 'aria-label': 'link to this state', 'data-testid': 'share-link' });
  const copyLink = html('button', { type: 'button', class: 'primary', 'data-testid': 'share-copy-link' }, 'Copy link');
  copyLink.addEventListener('click', async () => hooks.copied('Link', await copy(link)));
  const linkRow = html('div', { class: 'share-row' });
  linkRow.append(linkBox, copyLink);

  const panels = html('fieldset', { class: 'share-panels' });
  panels.append(html('legend', {}, 'Panels in the embed'));
  for (const p of EMBED_PANELS) {
    if ((p === 'listing' && !hooks.cKernel()) || (p === 'cuda' && !hooks.ptxKernel()) || (p === 'ptx' && !hooks.sassKernel())) continue;
    const box = html('input', { type: 'checkbox', 'data-testid': `embed-panel-${p}` });
    box.checked = chosen.has(p);
    box.addEventListener('change', () => { if (box.checked) chosen.add(p); else chosen.delete(p); update(); });
    const label = html('label', { title: PANEL_INFO[p].about });
    label.append(box, ` ${PANEL_INFO[p].title}`);
    panels.append(label);
  }
  const sizes = html('fieldset', { class: 'share-sizes' });
  sizes.append(html('legend', {}, 'Size'));
  EMBED_SIZES.forEach((s, i) => {
    const radio = html('input', { type: 'radio', name: 'embed-size', value: String(i), 'data-testid': `embed-size-${s.width}` });
    radio.checked = s === size;
    radio.addEventListener('change', () => { size = s; update(); });
    const label = html('label');
    label.append(radio, ` ${s.label}`);
    sizes.append(label);
  });
  const snippet = html('textarea', { readonly: '', rows: 3, class: 'share-text mono', 'aria-label': 'embed code', 'data-testid': 'embed-snippet' });
  const copySnippet = html('button', { type: 'button', class: 'primary', 'data-testid': 'copy-embed' }, 'Copy embed code');
  copySnippet.addEventListener('click', async () => hooks.copied('Embed code', await copy(snippet.value)));
  const openEmbed = html('a', { target: '_blank', rel: 'noopener', 'data-testid': 'open-embed' }, 'open the embed on its own ↗');
  const snippetRow = html('div', { class: 'share-row' });
  snippetRow.append(snippet, copySnippet);
  const warn = html('p', { class: 'bad small', role: 'status' });

  const frame = html('iframe', { title: 'preview of the embed', class: 'share-preview-frame', 'data-testid': 'embed-preview', loading: 'lazy' });
  const box = html('div', { class: 'share-preview' });
  box.append(frame);
  const caption = html('p', { class: 'muted small' });

  function update(): void {
    const list = EMBED_PANELS.filter((p) => chosen.has(p));
    warn.textContent = list.length ? '' : 'Choose at least one panel.';
    copySnippet.disabled = list.length === 0;
    const url = embedUrl(link, list);
    snippet.value = list.length ? iframeSnippet(url, size.width, size.height, hooks.title()) : '';
    openEmbed.setAttribute('href', url);
    // The preview is the embed at its real size, scaled down to the dialog's width.
    const scale = Math.min(1, 480 / size.width);
    frame.width = String(size.width);
    frame.height = String(size.height);
    frame.style.transform = `scale(${scale})`;
    box.style.width = `${Math.round(size.width * scale)}px`;
    box.style.height = `${Math.round(size.height * scale)}px`;
    caption.textContent = `Preview at ${size.width} × ${size.height}${scale < 1 ? `, shown at ${Math.round(scale * 100)} %` : ''}. The embed is read-only; its title line opens the whole app.`;
    if (list.length && frame.dataset.src !== url) { frame.dataset.src = url; frame.src = url; }
  }

  const left = html('div', { class: 'share-options' });
  left.append(panels, sizes);
  const body = html('div', { class: 'share-body' });
  const right = html('div', { class: 'share-side' });
  right.append(box, caption);
  body.append(left, right);
  dialog.replaceChildren(close, html('h2', {}, 'Share'), linkRow, html('h2', {}, 'Embed in slides or a page'), body, snippetRow, warn, openEmbed);
  update();
  dialog.showModal();
}

