//! Lowering: parsed items to a [`Program`]. Groups statements into kernels, applies directives,
//! resolves structured targets and per-kernel labels, and checks register ranges.

pub(crate) mod select;
pub(crate) mod structure;

use crate::diagnostic::{LineIndex, Sink};
use crate::instr::{Guard, Instr, Op};
use crate::program::{Kernel, Program, Span};
use crate::syntax::ast::{Directive, Item, ItemKind};
use crate::syntax::suggest::closest;
use select::{select, RegisterUse};
use structure::Structure;

/// `wave-asm` writes 32 into the metadata when `.registers` is absent.
pub(crate) const DEFAULT_REGISTER_COUNT: u32 = 32;

struct Call {
    index: usize,
    label: String,
    span: Span,
}

struct KernelBuilder {
    kernel: Kernel,
    line: u32,
    registers: Option<(u32, u32)>,
    /// `.registers` had an unreadable value: skip range checks rather than guess.
    registers_unreadable: bool,
    local_memory_line: Option<u32>,
    workgroup_size_line: Option<u32>,
    label_spans: Vec<Span>,
    calls: Vec<Call>,
    register_uses: Vec<RegisterUse>,
    structure: Structure,
}

impl KernelBuilder {
    fn new(name: String, name_span: Span, line: u32) -> Self {
        KernelBuilder {
            kernel: Kernel {
                name,
                name_span,
                register_count: DEFAULT_REGISTER_COUNT,
                ..Kernel::default()
            },
            line,
            registers: None,
            registers_unreadable: false,
            local_memory_line: None,
            workgroup_size_line: None,
            label_spans: Vec::new(),
            calls: Vec::new(),
            register_uses: Vec::new(),
            structure: Structure::default(),
        }
    }
}

struct Lowering<'s, 'd> {
    lines: &'s LineIndex<'s>,
    sink: &'d mut Sink,
    open: Option<KernelBuilder>,
    done: Vec<KernelBuilder>,
}

pub(crate) fn lower(items: &[Item], lines: &LineIndex, sink: &mut Sink) -> Program {
    let mut lowering = Lowering {
        lines,
        sink,
        open: None,
        done: Vec::new(),
    };
    for item in items {
        lowering.item(item);
    }
    if let Some(kernel) = lowering.open.take() {
        lowering
            .sink
            .error(
                kernel.kernel.name_span,
                format!("kernel `{}` has no `.end`", kernel.kernel.name),
            )
            .with_help("add `.end` after its last instruction");
        lowering.finish(kernel);
    }
    lowering.resolve_calls();
    Program {
        kernels: lowering.done.into_iter().map(|k| k.kernel).collect(),
    }
}

fn describe_kernel(name: &str) -> String {
    if name.is_empty() {
        "the unnamed kernel".to_string()
    } else {
        format!("kernel `{name}`")
    }
}

fn line_of(lines: &LineIndex, span: Span) -> u32 {
    lines.locate(span.start).0
}

impl Lowering<'_, '_> {
    fn item(&mut self, item: &Item) {
        let line = line_of(self.lines, item.span);
        match &item.kind {
            ItemKind::Directive(directive) => self.directive(directive, item.span, line),
            ItemKind::Label(name) => {
                let Some(kernel) = self.open.as_mut() else {
                    self.sink
                        .error(item.span, format!("label `{name}` is outside a kernel"))
                        .with_help("put code and labels between `.kernel NAME` and `.end`");
                    return;
                };
                let existing = kernel.kernel.labels.iter().position(|(n, _)| n == name);
                if let Some(position) = existing {
                    let first_line = line_of(self.lines, kernel.label_spans[position]);
                    self.sink
                        .error(
                            item.span,
                            format!(
                                "label `{name}` is defined twice in kernel `{}`",
                                kernel.kernel.name
                            ),
                        )
                        .with_help(format!("the first definition is at line {first_line}"));
                    return;
                }
                let index = kernel.kernel.code.len() as u32;
                kernel.kernel.labels.push((name.clone(), index));
                kernel.label_spans.push(item.span);
            }
            ItemKind::Statement(statement) => {
                let selection = select(statement, self.sink);
                let Some(kernel) = self.open.as_mut() else {
                    self.sink
                        .error(statement.span, "instruction outside a kernel")
                        .with_help("put code between `.kernel NAME` and `.end`");
                    return;
                };
                let instr = match selection {
                    Ok(selected) => {
                        kernel.register_uses.extend(selected.registers);
                        if let Some((label, span)) = selected.label {
                            kernel.calls.push(Call {
                                index: kernel.kernel.code.len(),
                                label,
                                span,
                            });
                        }
                        selected.instr
                    }
                    // Keep a placeholder so the structure checks still see the op.
                    Err(op) => Instr::new(op.unwrap_or(Op::Nop)),
                };
                let index = kernel.kernel.code.len();
                kernel.kernel.code.push(instr);
                kernel.kernel.spans.push(statement.span);
                kernel.kernel.lines.push(line);
                kernel.structure.track(
                    &mut kernel.kernel.code,
                    index,
                    statement.span,
                    line,
                    self.sink,
                );
            }
        }
    }

    fn directive(&mut self, directive: &Directive, span: Span, line: u32) {
        match directive {
            Directive::Kernel { name } => {
                if let Some(open) = self.open.take() {
                    self.sink
                        .error(
                            span,
                            format!(
                                "nested `.kernel`: {} opened at line {} has no `.end` yet",
                                describe_kernel(&open.kernel.name),
                                open.line
                            ),
                        )
                        .with_help("end the previous kernel with `.end` first");
                    self.finish(open);
                }
                let (name, name_span) = name.clone().unwrap_or((String::new(), span));
                if !name.is_empty() {
                    let earlier = self
                        .done
                        .iter()
                        .find(|k| k.kernel.name == name)
                        .map(|k| k.line);
                    if let Some(first_line) = earlier {
                        self.sink
                            .error(name_span, format!("kernel `{name}` is defined twice"))
                            .with_help(format!("the first definition is at line {first_line}"));
                    }
                }
                self.open = Some(KernelBuilder::new(name, name_span, line));
            }
            Directive::End => match self.open.take() {
                Some(kernel) => self.finish(kernel),
                None => {
                    self.sink.error(span, "`.end` without an open `.kernel`");
                }
            },
            Directive::Registers(value) => {
                let Some(kernel) = self.kernel_for_directive(".registers", span) else {
                    return;
                };
                let earlier = kernel.registers.map(|(_, l)| l);
                match value {
                    Some(count) => {
                        kernel.registers = Some((*count, line));
                        kernel.kernel.register_count = *count;
                    }
                    None => kernel.registers_unreadable = true,
                }
                self.warn_repeated(".registers", earlier, span);
            }
            Directive::LocalMemory(value) => {
                let Some(kernel) = self.kernel_for_directive(".local_memory", span) else {
                    return;
                };
                let earlier = kernel.local_memory_line.replace(line);
                kernel.kernel.local_memory = value.filter(|bytes| *bytes > 0);
                self.warn_repeated(".local_memory", earlier, span);
            }
            Directive::WorkgroupSize(value) => {
                let Some(kernel) = self.kernel_for_directive(".workgroup_size", span) else {
                    return;
                };
                let earlier = kernel.workgroup_size_line.replace(line);
                kernel.kernel.workgroup_size = value.filter(|size| size[0] > 0);
                self.warn_repeated(".workgroup_size", earlier, span);
            }
        }
    }

    fn warn_repeated(&mut self, name: &str, earlier: Option<u32>, span: Span) {
        if let Some(first_line) = earlier {
            self.sink
                .warning(
                    span,
                    format!("`{name}` is given twice in this kernel; the last one wins"),
                )
                .with_help(format!("the first is at line {first_line}"));
        }
    }

    fn kernel_for_directive(&mut self, name: &str, span: Span) -> Option<&mut KernelBuilder> {
        if self.open.is_none() {
            self.sink
                .error(span, format!("`{name}` outside a kernel"))
                .with_help("kernel directives go between `.kernel NAME` and `.end`");
        }
        self.open.as_mut()
    }

    fn finish(&mut self, mut builder: KernelBuilder) {
        builder.structure.finish(self.sink);
        let kernel = &mut builder.kernel;
        kernel.max_depth = builder.structure.max_depth();

        let count = kernel.register_count;
        let mut highest_used = 0u32;
        let mut used = [false; 256];
        for usage in &builder.register_uses {
            let last = usage.first as u32 + usage.count as u32 - 1;
            highest_used = highest_used.max(last + 1);
            for register in usage.first as u32..=last.min(255) {
                used[register as usize] = true;
            }
            if last >= count && !builder.registers_unreadable {
                let what = match usage.count {
                    1 => format!("`r{}` is", usage.first),
                    2 => format!("the register pair r{}-r{last} reaches", usage.first),
                    _ => format!("the registers r{}-r{last} reach", usage.first),
                };
                let declared = match builder.registers {
                    Some((_, line)) => format!("`.registers {count}` at line {line}"),
                    None => format!("the default `.registers {count}`"),
                };
                self.sink
                    .error(
                        usage.span,
                        format!(
                            "{what} beyond the {count} registers of kernel `{}` (r0-r{})",
                            kernel.name,
                            count.saturating_sub(1)
                        ),
                    )
                    .with_help(format!(
                        "{declared} allows r0-r{}; declare `.registers {}` or more",
                        count.saturating_sub(1),
                        last + 1
                    ));
            }
        }
        kernel.used_registers = (0..=255u8).filter(|&r| used[r as usize]).collect();
        kernel.register_file_size = highest_used.max(count).min(256);

        for (position, (name, index)) in kernel.labels.iter().enumerate() {
            if *index as usize == kernel.code.len() {
                self.sink
                    .warning(
                        builder.label_spans[position],
                        format!("label `{name}` is not followed by an instruction"),
                    )
                    .with_help("a `call` to it would run past the end of the kernel");
            }
        }

        match kernel.code.last() {
            Some(last)
                if matches!(last.op, Op::Halt | Op::Return) && last.guard == Guard::Always => {}
            Some(_) => {
                let span = kernel.spans.last().copied().unwrap_or(kernel.name_span);
                self.sink
                    .warning(span, "kernel can run past its last instruction")
                    .with_help("end the kernel with `halt`; running off the end is a trap");
            }
            None => {
                self.sink
                    .warning(
                        kernel.name_span,
                        format!(
                            "kernel `{}` has no instructions, so it runs past its end",
                            kernel.name
                        ),
                    )
                    .with_help("end the kernel with `halt`; running off the end is a trap");
            }
        }
        self.done.push(builder);
    }

    /// Labels are per kernel (unlike `wave-asm`'s global table): resolve each call in its own.
    fn resolve_calls(&mut self) {
        let mut unresolved = Vec::new();
        for (kernel_index, builder) in self.done.iter_mut().enumerate() {
            for call in &builder.calls {
                let found = builder
                    .kernel
                    .labels
                    .iter()
                    .find(|(name, _)| *name == call.label);
                match (found, builder.kernel.code.get_mut(call.index)) {
                    (Some((_, target)), Some(instr)) => instr.target = *target,
                    _ => unresolved.push((kernel_index, call.label.clone(), call.span)),
                }
            }
        }
        for (kernel_index, label, span) in unresolved {
            let builder = &self.done[kernel_index];
            let elsewhere = self
                .done
                .iter()
                .find(|other| other.kernel.labels.iter().any(|(name, _)| *name == label))
                .map(|other| other.kernel.name.clone());
            let diagnostic = self.sink.error(
                span,
                format!(
                    "unknown label `{label}` in kernel `{}`",
                    builder.kernel.name
                ),
            );
            if let Some(other) = elsewhere {
                diagnostic.with_help(format!(
                    "`{label}` is defined in kernel `{other}`; labels are local to their kernel"
                ));
            } else if let Some(near) = closest(
                &label,
                builder.kernel.labels.iter().map(|(n, _)| n.as_str()),
            ) {
                diagnostic.with_help(format!("did you mean `{near}`?"));
            }
        }
    }
}
