//! Structured control flow: matches `if/else/endif` and `loop/endloop`, resolves their targets
//! (see [`Op`]) and reports every imbalance, naming both ends.

use crate::diagnostic::Sink;
use crate::instr::{Instr, Op};
use crate::program::Span;

/// The ISA's divergence-stack limit (spec MIN_DIVERGENCE_DEPTH, `wave-emu`'s 32 frames).
pub(crate) const MAX_DEPTH: usize = 32;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum FrameKind {
    If,
    Loop,
}

impl FrameKind {
    fn opener(self) -> &'static str {
        match self {
            FrameKind::If => "if",
            FrameKind::Loop => "loop",
        }
    }

    fn closer(self) -> &'static str {
        match self {
            FrameKind::If => "endif",
            FrameKind::Loop => "endloop",
        }
    }
}

#[derive(Clone, Copy, Debug)]
struct Frame {
    kind: FrameKind,
    index: usize,
    line: u32,
    span: Span,
    /// Index and line of this `if`'s `else`.
    else_at: Option<(usize, u32)>,
}

#[derive(Debug, Default)]
pub(crate) struct Structure {
    stack: Vec<Frame>,
    max_depth: u32,
}

impl Structure {
    pub(crate) fn max_depth(&self) -> u32 {
        self.max_depth
    }

    /// Tracks instruction `index` (already pushed into `code`), resolving targets on close.
    pub(crate) fn track(
        &mut self,
        code: &mut [Instr],
        index: usize,
        span: Span,
        line: u32,
        sink: &mut Sink,
    ) {
        let Some(op) = code.get(index).map(|i| i.op) else {
            return;
        };
        match op {
            Op::If | Op::Loop => {
                let kind = if op == Op::If {
                    FrameKind::If
                } else {
                    FrameKind::Loop
                };
                if self.stack.len() == MAX_DEPTH {
                    sink.error(
                        span,
                        format!("`{}` nests deeper than {MAX_DEPTH} levels", kind.opener()),
                    )
                    .with_help("the divergence stack holds 32 frames (if and loop together)");
                }
                self.stack.push(Frame {
                    kind,
                    index,
                    line,
                    span,
                    else_at: None,
                });
                self.max_depth = self.max_depth.max(self.stack.len() as u32);
            }
            Op::Else => match self.stack.last_mut() {
                Some(frame) if frame.kind == FrameKind::If => {
                    if let Some((_, first_line)) = frame.else_at {
                        sink.error(
                            span,
                            format!("second `else` for the `if` opened at line {}", frame.line),
                        )
                        .with_help(format!("the first `else` is at line {first_line}"));
                    } else {
                        frame.else_at = Some((index, line));
                    }
                }
                Some(frame) => {
                    sink.error(
                        span,
                        format!(
                            "`else` at line {line} is inside the `loop` opened at line {}, not an `if`",
                            frame.line
                        ),
                    )
                    .with_help("close the loop with `endloop` first");
                }
                None => {
                    sink.error(span, "`else` without an open `if`");
                }
            },
            Op::EndIf => self.close(FrameKind::If, code, index, span, line, sink),
            Op::EndLoop => self.close(FrameKind::Loop, code, index, span, line, sink),
            Op::Break | Op::Continue if !self.stack.iter().any(|f| f.kind == FrameKind::Loop) => {
                let name = if op == Op::Break { "break" } else { "continue" };
                sink.error(span, format!("`{name}` outside a loop"))
                    .with_help("`break` and `continue` must be between `loop` and `endloop`");
            }
            _ => {}
        }
    }

    fn close(
        &mut self,
        kind: FrameKind,
        code: &mut [Instr],
        index: usize,
        span: Span,
        line: u32,
        sink: &mut Sink,
    ) {
        match self.stack.last() {
            Some(frame) if frame.kind == kind => {
                let frame = *frame;
                self.stack.pop();
                let here = index as u32;
                match kind {
                    FrameKind::If => {
                        let else_index = frame.else_at.map_or(here, |(i, _)| i as u32);
                        if let Some(opener) = code.get_mut(frame.index) {
                            opener.imm = else_index;
                            opener.target = here;
                        }
                        if let Some((else_index, _)) = frame.else_at {
                            if let Some(else_instr) = code.get_mut(else_index) {
                                else_instr.target = here;
                            }
                        }
                    }
                    FrameKind::Loop => {
                        if let Some(opener) = code.get_mut(frame.index) {
                            opener.target = here;
                        }
                        if let Some(closer) = code.get_mut(index) {
                            closer.target = frame.index as u32 + 1;
                        }
                    }
                }
            }
            Some(frame) => {
                sink.error(
                    span,
                    format!(
                        "`{}` at line {line} closes the `{}` opened at line {}",
                        kind.closer(),
                        frame.kind.opener(),
                        frame.line
                    ),
                )
                .with_help(format!("close it with `{}` first", frame.kind.closer()));
            }
            None => {
                sink.error(
                    span,
                    format!("`{}` without an open `{}`", kind.closer(), kind.opener()),
                );
            }
        }
    }

    /// At `.end` (or end of file): every construct still open is an error.
    pub(crate) fn finish(&mut self, sink: &mut Sink) {
        for frame in self.stack.drain(..) {
            sink.error(
                frame.span,
                format!(
                    "`{}` opened at line {} is never closed",
                    frame.kind.opener(),
                    frame.line
                ),
            )
            .with_help(format!(
                "add `{}` before the end of the kernel",
                frame.kind.closer()
            ));
        }
    }
}
