// A kernel of exactly `lines` lines (at least 7) that compiles cleanly: `if` blocks one after
// another in one kernel, each round's first line ending in a comment. For the editor's benchmark
// and its end-to-end tests.
export function longKernel(lines) {
  const out = ['.kernel long', '.registers 8', '    mov_sr   r0, sr_lane_id', '    mov_imm  r1, 1', '    mov_imm  r2, 0'];
  for (let i = 0; out.length + 5 <= lines - 2; i++) {
    out.push(`    iadd     r2, r2, r1            ; round ${i}`, '    icmp_lt  p1, r2, r0', '    if p1',
      '        imul     r3, r2, r1', '    endif');
  }
  while (out.length < lines - 2) out.push('    iadd     r2, r2, r1');
  out.push('    halt', '.end');
  return out.join('\n');
}
