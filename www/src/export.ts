//! Downloads: SVG images (standalone: the plots set their colours and fonts as attributes), PNGs
//! drawn from them on a canvas at a multiple of their size, CSV text (the trace, a sweep), and the
//! CFG as a standalone SVG (`cfg-export.ts` writes its text). The files' names come from
//! `file-name.ts`.

import type { SvgImage } from './svg-markup';

function download(blob: Blob, name: string): void {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
}

/** A plot on the page as an image, without its on-screen-only parts (hover layers, `data-export="skip"`). */
export function imageOf(el: SVGSVGElement): SvgImage {
  const copy = el.cloneNode(true) as SVGSVGElement;
  for (const skip of copy.querySelectorAll('[data-export="skip"]')) skip.remove();
  return { text: new XMLSerializer().serializeToString(copy), width: Number(el.getAttribute('width')), height: Number(el.getAttribute('height')) };
}

export function svgFile(image: SvgImage, name: string): void {
  download(new Blob([image.text], { type: 'image/svg+xml' }), name);
}

/** `scale` pixels per unit of the image: 2 keeps a screen plot sharp on slides. */
export async function pngFile(image: SvgImage, name: string, scale = 2): Promise<void> {
  const url = URL.createObjectURL(new Blob([image.text], { type: 'image/svg+xml' }));
  try {
    const img = new Image();
    img.src = url;
    await img.decode();
    const canvas = document.createElement('canvas');
    canvas.width = image.width * scale;
    canvas.height = image.height * scale;
    const ctx = canvas.getContext('2d')!;
    ctx.scale(scale, scale);
    ctx.drawImage(img, 0, 0, image.width, image.height);
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
