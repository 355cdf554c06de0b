//! A `.wbin` back to source. The text is only returned when it is exact: it must compile, and
//! assembling it must give the same bytes. A binary laid out differently from what `wave-asm`
//! writes, or holding what the playground's source cannot say (a predicated `if`, a call into
//! the middle of an instruction, a register beyond the kernel's count), is an error at the byte
//! that causes it.

use std::fmt::Write;

use crate::diagnostic::Diagnostic;
use crate::lower::DEFAULT_REGISTER_COUNT;
use crate::syntax::ast::Scope;

use super::add_or_cas;
use super::assemble::assemble;
use super::container::Header;
use super::decode::{decode, Wbin, WbinKernel};
use super::error::WbinError;
use super::labels::label_offsets;
use super::layout;
use super::opcodes::mnemonic;
use super::word::{Instruction, Operand};

/// The source text of a `.wbin`: every kernel with its directives, each instruction commented
/// with its byte offset in the kernel, and a label `L_XXXX` (the label's byte offset) for every
/// call target.
pub fn disassemble(bytes: &[u8]) -> Result<String, WbinError> {
    let mut wbin = decode(bytes)?;
    layout::check(&wbin)?;
    add_or_cas::resolve(&mut wbin.kernels);
    let listing = render(&wbin)?;
    verify(bytes, &listing)?;
    Ok(listing.text)
}

/// The text and, for each line that came from the binary, the file offset it came from.
#[derive(Default)]
struct Listing {
    text: String,
    /// Lines written so far.
    lines: u32,
    /// `(line, file offset)`, lines ascending.
    origins: Vec<(u32, usize)>,
}

impl Listing {
    fn line(&mut self, origin: usize, text: &str) {
        self.lines += 1;
        self.origins.push((self.lines, origin));
        self.text.push_str(text);
        self.text.push('\n');
    }

    fn blank(&mut self) {
        self.lines += 1;
        self.text.push('\n');
    }

    /// The file offset behind `line`: that of the nearest line at or above it.
    fn origin(&self, line: u32) -> usize {
        self.origins
            .iter()
            .take_while(|(at, _)| *at <= line)
            .last()
            .map_or(0, |(_, origin)| *origin)
    }
}

fn render(wbin: &Wbin) -> Result<Listing, WbinError> {
    let targets = label_offsets(
        wbin.kernels
            .iter()
            .map(|kernel| kernel.instructions.iter().map(|instruction| instruction.op)),
    );
    let mut listing = Listing::default();
    for (index, (kernel, targets)) in wbin.kernels.iter().zip(&targets).enumerate() {
        if index > 0 {
            listing.blank();
        }
        render_kernel(&mut listing, &wbin.header, kernel, targets)?;
    }
    Ok(listing)
}

fn render_kernel(
    listing: &mut Listing,
    header: &Header,
    kernel: &WbinKernel,
    targets: &[u32],
) -> Result<(), WbinError> {
    let record = kernel.record_at;
    listing.line(
        record,
        &format!(".kernel {}", kernel.name.as_deref().unwrap_or_default()),
    );
    if kernel.register_count != DEFAULT_REGISTER_COUNT {
        listing.line(
            record + 4,
            &format!("    .registers {}", kernel.register_count),
        );
    }
    if kernel.local_memory != 0 {
        listing.line(
            record + 8,
            &format!("    .local_memory {}", kernel.local_memory),
        );
    }
    if kernel.workgroup_size != [0; 3] {
        let [x, y, z] = kernel.workgroup_size;
        listing.line(record + 12, &format!("    .workgroup_size {x}, {y}, {z}"));
    }
    let labelled = call_labels(header, kernel, targets)?;
    for (index, instruction) in kernel.instructions.iter().enumerate() {
        let at = kernel.file_offset(header, index);
        if labelled[index] {
            listing.line(at, &format!("{}:", label(kernel, index)));
        }
        let text = format!("    {}", statement(kernel, instruction, targets));
        let offset = kernel.offsets.get(index).copied().unwrap_or_default();
        listing.line(at, &format!("{text:<40} ; {offset:#06x}"));
    }
    if labelled[kernel.instructions.len()] {
        let at = kernel.file_offset(header, kernel.instructions.len());
        listing.line(
            at,
            &format!("{}:", label(kernel, kernel.instructions.len())),
        );
    }
    listing.line(record, ".end");
    Ok(())
}

/// Per instruction boundary (one more than there are instructions): whether a call in this
/// kernel lands there. A call's stored target is a label-table count ([`label_offsets`]); it
/// must be one of this kernel's boundaries, since labels belong to their kernel in the
/// playground.
fn call_labels(
    header: &Header,
    kernel: &WbinKernel,
    targets: &[u32],
) -> Result<Vec<bool>, WbinError> {
    let mut labelled = vec![false; kernel.instructions.len() + 1];
    for (index, instruction) in kernel.instructions.iter().enumerate() {
        let Some(target) = call_target(instruction) else {
            continue;
        };
        let Some(boundary) = boundary(targets, target) else {
            return Err(WbinError::new(
                kernel.file_offset(header, index) + 4,
                format!(
                    "call target {target:#x} is not an instruction of kernel `{}` by wave-asm's label count (which counts only its extended mnemonics as 8 bytes)",
                    kernel.name.as_deref().unwrap_or_default()
                ),
            ));
        };
        if let Some(slot) = labelled.get_mut(boundary) {
            *slot = true;
        }
    }
    Ok(labelled)
}

/// The boundary whose label-table count is `target`. The counts only grow (every instruction
/// counts 4 or 8), so they can be searched.
fn boundary(targets: &[u32], target: u32) -> Option<usize> {
    targets.binary_search(&target).ok()
}

fn call_target(instruction: &Instruction) -> Option<u32> {
    instruction
        .operands
        .iter()
        .find_map(|operand| match operand {
            Operand::Target(target) => Some(*target),
            _ => None,
        })
}

/// A label named after the byte offset (in its kernel) of the instruction it marks.
fn label(kernel: &WbinKernel, index: usize) -> String {
    let offset = kernel
        .offsets
        .get(index)
        .copied()
        .unwrap_or(kernel.code_size);
    format!("L_{offset:04x}")
}

fn statement(kernel: &WbinKernel, instruction: &Instruction, targets: &[u32]) -> String {
    let mut text = String::new();
    if let Some((predicate, negated)) = instruction.predicate {
        let bang = if negated { "!" } else { "" };
        let _ = write!(text, "@{bang}p{predicate} ");
    }
    text.push_str(mnemonic(instruction.op));
    for (index, operand) in instruction.operands.iter().enumerate() {
        text.push_str(if index == 0 { " " } else { ", " });
        match *operand {
            Operand::Register(n) => {
                let _ = write!(text, "r{n}");
            }
            Operand::Predicate(p) => {
                let _ = write!(text, "p{p}");
            }
            Operand::Special(sr) => text.push_str(sr.name()),
            Operand::Scope(scope) => text.push_str(scope_name(scope)),
            Operand::Immediate(value) => {
                let _ = write!(text, "{value:#010x}");
            }
            Operand::Target(target) => {
                let boundary = boundary(targets, target).unwrap_or_default();
                text.push_str(&label(kernel, boundary));
            }
        }
    }
    text
}

fn scope_name(scope: Scope) -> &'static str {
    match scope {
        Scope::Wave => ".wave",
        Scope::Workgroup => ".workgroup",
        Scope::Device => ".device",
        Scope::System => ".system",
    }
}

/// The listing must compile and assemble back to `bytes`; a failure names the byte behind the
/// first line at fault.
fn verify(bytes: &[u8], listing: &Listing) -> Result<(), WbinError> {
    let at_fault = |diagnostic: &Diagnostic| {
        let line = listing
            .text
            .lines()
            .nth(diagnostic.line.saturating_sub(1) as usize)
            .unwrap_or_default()
            .trim();
        WbinError::new(
            listing.origin(diagnostic.line),
            format!(
                "the disassembly `{line}` is not valid source: {}",
                diagnostic.message
            ),
        )
    };
    let again = assemble(&listing.text).map_err(|error| match error.diagnostics.first() {
        Some(diagnostic) => at_fault(diagnostic),
        None => WbinError::new(0, "the disassembly does not assemble"),
    })?;
    if again != bytes {
        let first = again
            .iter()
            .zip(bytes)
            .position(|(a, b)| a != b)
            .unwrap_or(again.len().min(bytes.len()));
        return Err(WbinError::new(
            first,
            "the disassembly assembles to different bytes here: the binary holds a form its source cannot express",
        ));
    }
    Ok(())
}
