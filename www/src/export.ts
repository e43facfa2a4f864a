//! Downloads: plots as SVG (standalone: the plots set their colours and fonts as attributes) or
//! PNG (the SVG drawn onto a canvas at twice its size), CSV text (the trace, a sweep), and the
//! CFG as a standalone SVG (`cfg-export.ts` writes its text).

function download(blob: Blob, name: string): void {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
}

/** The SVG's markup without its on-screen-only parts (hover layers, `data-export="skip"`). */
function svgText(el: SVGSVGElement): string {
  const copy = el.cloneNode(true) as SVGSVGElement;
  for (const skip of copy.querySelectorAll('[data-export="skip"]')) skip.remove();
  return new XMLSerializer().serializeToString(copy);
}

export function svgFile(el: SVGSVGElement, name: string): void {
  download(new Blob([svgText(el)], { type: 'image/svg+xml' }), name);
}

export async function pngFile(el: SVGSVGElement, name: string): Promise<void> {
  const w = Number(el.getAttribute('width')), h = Number(el.getAttribute('height'));
  const url = URL.createObjectURL(new Blob([svgText(el)], { type: 'image/svg+xml' }));
  try {
    const img = new Image();
    img.src = url;
    await img.decode();
    const scale = 2; // sharp on slides
    const canvas = document.createElement('canvas');
    canvas.width = w * scale;
    canvas.height = h * scale;
    const ctx = canvas.getContext('2d')!;
    ctx.scale(scale, scale);
    ctx.drawImage(img, 0, 0, w, h);
    const png = await new Promise<Blob | null>((res) => canvas.toBlob(res, 'image/png'));
    if (png) download(png, name);
  } finally {
    URL.revokeObjectURL(url);
  }
}

export function svgTextFile(text: string, name: string): void {
  download(new Blob([text], { type: 'image/svg+xml' }), name);
}

export function csvFile(text: string, name: string): void {
  download(new Blob([text], { type: 'text/csv' }), name);
}

// The stack-history plot and the trace, named after the kernel.
export const plotSvg = (el: SVGSVGElement, base: string) => svgFile(el, `${base}-stack.svg`);
export const plotPng = (el: SVGSVGElement, base: string) => pngFile(el, `${base}-stack.png`);
export const csv = (text: string, base: string) => csvFile(text, `${base}-trace.csv`);

/** "warpscope-double-loop-in-c-kepler-cfg.svg": the kernel's title as a slug, the model, what
 * the file holds. (To be replaced by the one file-name function for every export.) */
export function cfgFileName(title: string | null | undefined, model: string): string {
  const slug = (t: string, max: number) => t.toLowerCase().replace(/[^a-z0-9]+/g, '-').slice(0, max).replace(/^-+|-+$/g, '');
  return `warpscope-${slug(title ?? '', 48) || 'kernel'}-${slug(model, 24) || 'model'}-cfg.svg`;
}
