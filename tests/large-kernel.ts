// A generated C kernel of about 300 lines (sections of ifs, if/else chains and loops, each
// divergent in its own way), for the CFG's readability at scale: its graph has hundreds of blocks.

export function largeKernel(sections = 27): string {
  const out: string[] = [
    '//@ title Stress: a 300-line kernel',
    '//@ about Generated for the tests: many ifs and loops, so the CFG is far too big to read whole.',
    '//@ warp 32',
    '//@ buffer out: i32[32]',
    '//@ model kepler',
    '__global__ void stress(int* out) {',
    '    int t = threadIdx.x;',
    '    int r = 0;',
  ];
  for (let k = 0; k < sections; k++) {
    const mask = 1 << (k % 5);
    out.push(
      `    // section ${k}`,
      `    if ((t & ${mask}) == 0) {`,
      `        r = r + ${k + 1};`,
      `    } else if (t < ${(k * 7) % 32}) {`,
      `        r = r - ${k % 3};`,
      '    } else {',
      `        r = r ^ ${k};`,
      '    }',
      `    for (int i${k} = 0; i${k} < (t & 3) + ${k % 2}; i${k}++) {`,
      `        r = r + i${k};`,
      '    }',
    );
  }
  out.push('    out[t] = r;', '}', '');
  return out.join('\n');
}
