//! Downloads: the stack-history plot as SVG or PNG (the SVG drawn onto a canvas) and the trace
//! as CSV.

function download(blob: Blob, name: string): void {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
}

function svgText(el: SVGSVGElement): string {
  return new XMLSerializer().serializeToString(el);
}

export function plotSvg(el: SVGSVGElement, base: string): void {
  download(new Blob([svgText(el)], { type: 'image/svg+xml' }), `${base}-stack.svg`);
}

export async function plotPng(el: SVGSVGElement, base: string): Promise<void> {
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
    if (png) download(png, `${base}-stack.png`);
  } finally {
    URL.revokeObjectURL(url);
  }
}

export function csv(text: string, base: string): void {
  download(new Blob([text], { type: 'text/csv' }), `${base}-trace.csv`);
}
