//! Instruction selection: one parsed statement to one [`Instr`], checking operand count and
//! kinds against the mnemonic table and applying the docs-dialect rules (with their warnings).

use crate::diagnostic::Sink;
use crate::instr::{flags, Guard, Instr, Op};
use crate::program::Span;
use crate::syntax::ast::{OperandKind, Statement};
use crate::syntax::mnemonics::{self, Form, Immediates, Kind, Mnemonic, Slot, MNEMONICS};
use crate::syntax::suggest::closest;

/// Registers an instruction touches: `count` consecutive registers from `first`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct RegisterUse {
    pub first: u8,
    pub count: u8,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Selected {
    pub instr: Instr,
    pub registers: Vec<RegisterUse>,
    /// `call`'s label and its span, resolved per kernel later.
    pub label: Option<(String, Span)>,
}

/// The outcome for one statement. On failure the op is still returned when it is known, so
/// structured-control checks can go on without cascading errors.
pub(crate) type SelectOutcome = Result<Selected, Option<Op>>;

const WAVE_ASM_REJECTS_IMMEDIATES: &str = "immediate operands are docs dialect: wave-asm accepts an immediate only in `mov_imm` and rejects this with \"expected register operand\"";

pub(crate) fn select(statement: &Statement, sink: &mut Sink) -> SelectOutcome {
    let written = mnemonics::strip_cache_hints(&statement.mnemonic);
    let first_is_predicate = matches!(
        statement.operands.first().map(|o| &o.kind),
        Some(OperandKind::Predicate { .. })
    );
    if first_is_predicate {
        if let Some((name, op, slots)) = mnemonics::PREDICATE_LOGIC
            .iter()
            .find(|(name, _, _)| *name == written)
        {
            return predicate_logic(statement, name, *op, slots, sink);
        }
    }
    let Some(resolved) = mnemonics::resolve(written) else {
        let wanted = written.replace('.', "_");
        let diagnostic = sink.error(
            statement.mnemonic_span,
            format!("unknown instruction `{written}`"),
        );
        if let Some(near) = closest(&wanted, MNEMONICS.iter().map(|m| m.name)) {
            diagnostic.with_help(format!("did you mean `{near}`?"));
        }
        return Err(None);
    };
    let mut entry: &Mnemonic = resolved.entry;
    if entry.op == Op::Mov
        && matches!(
            statement.operands.get(1).map(|o| &o.kind),
            Some(OperandKind::Special(_))
        )
    {
        // `wave-asm` rewrites `mov rd, sr_X` to `mov_sr`.
        entry = mnemonics::find("mov_sr").unwrap_or(entry);
    }
    dialect_spelling_warning(statement, written, resolved.dotted, entry, sink);
    let mut selector = Selector::new(statement, entry.name, sink);
    selector.guard(entry.op);
    selector.operands(entry);
    selector.finish(entry.op)
}

fn dialect_spelling_warning(
    statement: &Statement,
    written: &str,
    dotted: bool,
    entry: &Mnemonic,
    sink: &mut Sink,
) {
    let alternative = match entry.op {
        Op::UcmpGt => Some("wave-asm has no `ucmp_gt`: swap the operands and use `ucmp_lt`"),
        Op::UcmpGe => Some("wave-asm has no `ucmp_ge`: swap the operands and use `ucmp_le`"),
        Op::FcmpGe => Some("wave-asm has no `fcmp_ge`: swap the operands and use `fcmp_le`"),
        _ => None,
    };
    if dotted {
        let suffix = written.find('.').map_or("", |i| &written[i..]);
        let help = alternative.map_or_else(
            || format!("write `{}` to stay compatible with wave-asm", entry.name),
            str::to_string,
        );
        sink.warning(
            statement.mnemonic_span,
            format!(
                "`{written}` is docs dialect: wave-asm rejects dotted mnemonics (it reads `{suffix}` as a directive and fails with \"expected scope specifier\")"
            ),
        )
        .with_help(help);
    } else if let Some(help) = alternative.filter(|_| entry.dialect) {
        sink.warning(
            statement.mnemonic_span,
            format!("`{written}` is docs dialect: wave-asm has no such mnemonic"),
        )
        .with_help(help);
    }
}

fn predicate_logic(
    statement: &Statement,
    name: &str,
    op: Op,
    slots: &[Slot],
    sink: &mut Sink,
) -> SelectOutcome {
    sink.warning(
        statement.mnemonic_span,
        format!("`{name}` on predicates is docs dialect: wave-asm's `{name}` takes general registers only and rejects `p` operands"),
    )
    .with_help("wave-asm has no predicate logic; combine conditions with nested `if`s or compute them in registers");
    let mut selector = Selector::new(statement, name, sink);
    selector.guard(op);
    if selector.check_count(slots, &format!("`{name}` on predicates")) {
        for (index, (slot, operand)) in slots.iter().zip(&statement.operands).enumerate() {
            match operand.kind {
                OperandKind::Predicate { index: p, negated } => {
                    let negate_flag = match index {
                        0 => {
                            if negated {
                                selector.sink.error(
                                    operand.span,
                                    "the destination predicate cannot be negated",
                                );
                                selector.failed = true;
                            }
                            selector.instr.dst = p;
                            continue;
                        }
                        1 => {
                            selector.instr.a = p;
                            flags::NEGATE_A
                        }
                        _ => {
                            selector.instr.b = p;
                            flags::NEGATE_B
                        }
                    };
                    if negated {
                        selector.instr.flags |= negate_flag;
                    }
                }
                OperandKind::Invalid => selector.failed = true,
                ref other => selector.wrong_kind(index, slot, other, operand.span),
            }
        }
    }
    selector.instr.op = op;
    selector.finish(op)
}

struct Selector<'a, 'd> {
    statement: &'a Statement,
    name: &'a str,
    sink: &'d mut Sink,
    instr: Instr,
    registers: Vec<RegisterUse>,
    label: Option<(String, Span)>,
    immediate_seen: bool,
    failed: bool,
}

impl<'a, 'd> Selector<'a, 'd> {
    fn new(statement: &'a Statement, name: &'a str, sink: &'d mut Sink) -> Self {
        Selector {
            statement,
            name,
            sink,
            instr: Instr::new(Op::Nop),
            registers: Vec::new(),
            label: None,
            immediate_seen: false,
            failed: false,
        }
    }

    fn finish(self, op: Op) -> SelectOutcome {
        if self.failed {
            return Err(Some(op));
        }
        let mut instr = self.instr;
        instr.op = op;
        Ok(Selected {
            instr,
            registers: self.registers,
            label: self.label,
        })
    }

    fn guard(&mut self, op: Op) {
        let Some((guard, span)) = self.statement.guard else {
            return;
        };
        if matches!(op, Op::If | Op::Else | Op::EndIf | Op::Loop | Op::EndLoop) {
            self.sink
                .error(span, format!("`{}` cannot be predicated", self.name))
                .with_help("structured control flow already works per lane: use `if` on a combined predicate instead of a prefix");
            self.failed = true;
            return;
        }
        if guard == Guard::when(0) {
            self.sink
                .warning(span, "`@p0` is predicated on p0 here, but wave-asm encodes `@p0` as \"no predicate\" and runs the instruction on every lane")
                .with_help("use p1-p3 for predicates that guard instructions, so both behave the same");
        }
        self.instr.guard = guard;
    }

    /// Checks the operand count; false (after reporting) when it is wrong.
    fn check_count(&mut self, slots: &[Slot], what: &str) -> bool {
        let operands = &self.statement.operands;
        if operands.len() == slots.len() {
            return true;
        }
        if operands.iter().any(|o| o.kind == OperandKind::Invalid) {
            // An unreadable operand was already reported; a count error would only repeat it.
            self.failed = true;
            return false;
        }
        let expected = match slots.len() {
            0 => "no operands".to_string(),
            1 => "1 operand".to_string(),
            n => format!("{n} operands"),
        };
        let signature = slots.iter().map(|s| s.name).collect::<Vec<_>>().join(", ");
        let message = if signature.is_empty() {
            format!("{what} expects {expected}, found {}", operands.len())
        } else {
            format!(
                "{what} expects {expected}: {signature}; found {}",
                operands.len()
            )
        };
        let span = operands
            .get(slots.len())
            .map_or(self.statement.mnemonic_span, |extra| extra.span);
        self.sink.error(span, message);
        self.failed = true;
        false
    }

    fn operands(&mut self, entry: &Mnemonic) {
        let operands = &self.statement.operands;
        let full = entry.slots.len();
        let mut slots = entry.slots;
        match entry.form {
            Form::Plain => {}
            Form::LocalAtomic | Form::DeviceAtomic => {
                let scope_required = entry.form == Form::DeviceAtomic;
                let last_is_scope = matches!(
                    operands.last().map(|o| &o.kind),
                    Some(OperandKind::Scope(_) | OperandKind::Invalid)
                );
                if scope_required
                    && !last_is_scope
                    && operands.len() + 2 >= full
                    && operands.len() < full + 1
                {
                    self.sink
                        .error(
                            self.statement.mnemonic_span,
                            format!("`{}` needs a memory scope as its last operand", entry.name),
                        )
                        .with_help(format!(
                            "write `{} {}` with a scope of `.wave`, `.workgroup`, `.device` or `.system`",
                            entry.name,
                            entry.signature()
                        ));
                    self.failed = true;
                    return;
                }
                if operands.len() + 1 == full {
                    slots = &entry.slots[1..];
                    self.instr.flags |= flags::NO_DST;
                } else if operands.len() == full {
                    if let Some(OperandKind::Register(0)) = operands.first().map(|o| &o.kind) {
                        self.instr.flags |= flags::NO_DST;
                        self.sink
                            .warning(
                                operands[0].span,
                                format!("`{}` with rd = r0 does not return the old value: wave-asm encodes r0 as \"no destination\", so r0 is not written", entry.name),
                            )
                            .with_help("use another register to get the old value, or leave rd out");
                    }
                } else {
                    let what = format!("`{}`", entry.name);
                    let signature = format!(
                        "[rd,] {}",
                        entry.slots[1..]
                            .iter()
                            .map(|s| s.name)
                            .collect::<Vec<_>>()
                            .join(", ")
                    );
                    let span = operands
                        .get(full)
                        .map_or(self.statement.mnemonic_span, |extra| extra.span);
                    self.sink.error(
                        span,
                        format!(
                            "{what} expects {} or {} operands: {signature}; found {}",
                            full - 1,
                            full,
                            operands.len()
                        ),
                    );
                    self.failed = true;
                    return;
                }
            }
        }
        if !self.check_count(slots, &format!("`{}`", entry.name)) {
            return;
        }
        let mut next_source = 0;
        for (index, (slot, operand)) in slots.iter().zip(operands).enumerate() {
            let field = if index == 0 && slot.is_destination() {
                Field::Dst
            } else {
                let field = [Field::A, Field::B, Field::C, Field::D][next_source.min(3)];
                next_source += 1;
                field
            };
            self.operand(entry, index, *slot, field, &operand.kind, operand.span);
        }
    }

    fn set(&mut self, field: Field, value: u8) {
        match field {
            Field::Dst => self.instr.dst = value,
            Field::A => self.instr.a = value,
            Field::B => self.instr.b = value,
            Field::C => self.instr.c = value,
            Field::D => self.instr.d = value,
        }
    }

    fn wrong_kind(&mut self, index: usize, slot: &Slot, found: &OperandKind, span: Span) {
        let expected = match slot.kind {
            Kind::R | Kind::R2 | Kind::R4 | Kind::Frag => "a register",
            Kind::P => "a predicate",
            Kind::Scope => "a scope (`.wave`, `.workgroup`, `.device`, `.system`)",
            Kind::Label => "a label",
            Kind::Imm => "an immediate",
            Kind::Sr => "a special register (`sr_…`)",
        };
        let diagnostic = self.sink.error(
            span,
            format!(
                "operand {} of `{}` ({}) must be {expected}, found {}",
                index + 1,
                self.name,
                slot.name,
                found.describe()
            ),
        );
        if self.name == "mov" && matches!(found, OperandKind::Int(_) | OperandKind::Float(_)) {
            diagnostic.with_help("use `mov_imm` to load an immediate");
        }
        self.failed = true;
    }

    fn operand(
        &mut self,
        entry: &Mnemonic,
        index: usize,
        slot: Slot,
        field: Field,
        kind: &OperandKind,
        span: Span,
    ) {
        match (slot.kind, kind) {
            (_, OperandKind::Invalid) => self.failed = true,
            (Kind::R | Kind::R2 | Kind::R4, OperandKind::Register(n)) => {
                let count = slot.kind.register_width();
                if *n as u32 + count as u32 - 1 > 254 {
                    self.sink.error(
                        span,
                        format!(
                            "`{}` uses r{n}-r{} for {}, but registers stop at r254",
                            self.name,
                            *n as u32 + count as u32 - 1,
                            slot.name
                        ),
                    );
                    self.failed = true;
                }
                self.set(field, *n);
                self.registers.push(RegisterUse {
                    first: *n,
                    count,
                    span,
                });
            }
            (Kind::Frag, OperandKind::Register(n)) => self.set(field, *n),
            (Kind::R, OperandKind::Int(_) | OperandKind::Float(_))
                if field != Field::Dst && entry.immediates != Immediates::None =>
            {
                self.immediate(entry, field, kind, span)
            }
            (Kind::P, OperandKind::Predicate { index: p, negated }) => {
                self.set(field, *p);
                if *negated {
                    if matches!(entry.op, Op::Break | Op::Continue) {
                        self.instr.flags |= flags::NEGATE_A;
                        self.sink
                            .warning(span, format!("`{} !p` is docs dialect: wave-asm rejects `!` outside the `@` prefix", self.name))
                            .with_help("for wave-asm, compute the opposite condition into a predicate instead");
                    } else {
                        self.sink
                            .error(
                                span,
                                format!("`{}` cannot take a negated predicate", self.name),
                            )
                            .with_help(
                                "`!p` works only in `break`, `continue` and predicate logic",
                            );
                        self.failed = true;
                    }
                }
            }
            (Kind::Scope, OperandKind::Scope(_)) => {}
            (Kind::Label, OperandKind::Name(name)) => self.label = Some((name.clone(), span)),
            (Kind::Imm, OperandKind::Int(value)) => self.instr.imm = *value as u32,
            (Kind::Imm, OperandKind::Float(value)) => {
                let bits = (*value as f32).to_bits();
                let wave_asm_bits = (value.to_bits() & 0xFFFF_FFFF) as u32;
                self.instr.imm = bits;
                if bits != wave_asm_bits {
                    self.sink
                        .warning(span, format!("float immediate: this playground stores the f32 bits 0x{bits:08X}, but wave-asm stores the low 32 bits of the f64 pattern, 0x{wave_asm_bits:08X} ({wave_asm_bits})"))
                        .with_help(format!("write `0x{bits:08x}` to get the same value in both"));
                }
            }
            (Kind::Sr, OperandKind::Special(sr)) => self.set(field, *sr as u8),
            (_, found) => self.wrong_kind(index, &slot, found, span),
        }
    }

    fn immediate(&mut self, entry: &Mnemonic, field: Field, kind: &OperandKind, span: Span) {
        if self.immediate_seen {
            self.sink
                .error(
                    span,
                    format!("`{}` has more than one immediate operand", self.name),
                )
                .with_help(
                    "at most one operand may be an immediate; load the others with `mov_imm`",
                );
            self.failed = true;
            return;
        }
        self.immediate_seen = true;
        let flag = match field {
            Field::A => flags::A_IMM,
            Field::B => flags::B_IMM,
            Field::C => flags::C_IMM,
            Field::Dst | Field::D => {
                self.sink.error(
                    span,
                    format!("this operand of `{}` cannot be an immediate", self.name),
                );
                self.failed = true;
                return;
            }
        };
        let mut help = "load the value into a register with `mov_imm` first".to_string();
        let value = match (kind, entry.immediates) {
            (OperandKind::Int(v), Immediates::Float) => {
                help = format!(
                    "`{v}` is used as the raw bits 0x{:08x}; write `{v}.0` for the number",
                    *v as u32
                );
                *v as u32
            }
            (OperandKind::Int(v), _) => *v as u32,
            (OperandKind::Float(v), Immediates::Float | Immediates::Any) => (*v as f32).to_bits(),
            _ => {
                self.sink
                    .error(
                        span,
                        format!("`{}` does not take a float immediate", self.name),
                    )
                    .with_help("write the bit pattern as an integer, e.g. `0x3c00`");
                self.failed = true;
                return;
            }
        };
        self.instr.flags |= flag;
        self.instr.imm = value;
        self.sink
            .warning(span, WAVE_ASM_REJECTS_IMMEDIATES)
            .with_help(help);
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Field {
    Dst,
    A,
    B,
    C,
    D,
}
