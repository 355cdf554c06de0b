//! Source to `.wbin`, byte for byte what `wave-asm` writes. The source is compiled first, so it
//! is held to every rule of the front end; the lowered program gives each statement's
//! operation and registers, and the parsed statements give what lowering does not keep: the
//! memory scopes, immediates as written (a float immediate is stored the way `wave-asm` stores
//! it) and the directives' raw values.

use crate::compile::compile;
use crate::diagnostic::{Diagnostic, LineIndex, Severity, Sink};
use crate::instr::{flags, Instr, Op, SpecialRegister};
use crate::lower::DEFAULT_REGISTER_COUNT;
use crate::program::{Kernel, Program, Span};
use crate::syntax::ast::{Directive, ItemKind, OperandKind, Statement};
use crate::syntax::{lexer, parser};

use super::container::{self, KernelImage};
use super::error::AssembleError;
use super::labels::label_offsets;
use super::opcodes::{encoding_of, Encoding, Shape};
use super::word::{encode, Instruction, Operand};

/// Assembles `source` into a `.wbin` file. Fails with the compile errors, or with the statements
/// that have no encoding (docs-dialect forms: immediate operands, `break !p`, `ucmp_gt`,
/// `ucmp_ge`, `fcmp_ge`, predicate logic).
pub fn assemble(source: &str) -> Result<Vec<u8>, AssembleError> {
    let compiled = compile(source);
    let Some(program) = compiled.program else {
        let diagnostics = compiled
            .diagnostics
            .into_iter()
            .filter(Diagnostic::is_error)
            .collect();
        return Err(AssembleError { diagnostics });
    };
    let sources = kernel_sources(source);
    let mut problems = Vec::new();
    let images = images(&program, &sources, &mut problems);
    if problems.is_empty() {
        Ok(container::write(&images))
    } else {
        LineIndex::new(source).locate_all(&mut problems);
        Err(AssembleError {
            diagnostics: problems,
        })
    }
}

/// What the source text says about one kernel beyond its lowered code.
struct KernelSource {
    register_count: u32,
    local_memory: u32,
    workgroup_size: [u32; 3],
    statements: Vec<Statement>,
}

/// The kernels' statements and directive values, in source order. Only called on a source that
/// compiled, so every statement and directive is inside a kernel.
fn kernel_sources(source: &str) -> Vec<KernelSource> {
    let mut sink = Sink::default();
    let tokens = lexer::lex(source, &mut sink);
    let items = parser::parse(source, &tokens, &mut sink);
    let mut kernels: Vec<KernelSource> = Vec::new();
    for item in items {
        match item.kind {
            ItemKind::Directive(Directive::Kernel { .. }) => kernels.push(KernelSource {
                register_count: DEFAULT_REGISTER_COUNT,
                local_memory: 0,
                workgroup_size: [0; 3],
                statements: Vec::new(),
            }),
            ItemKind::Directive(directive) => {
                let Some(kernel) = kernels.last_mut() else {
                    continue;
                };
                match directive {
                    Directive::Registers(Some(count)) => kernel.register_count = count,
                    Directive::LocalMemory(Some(bytes)) => kernel.local_memory = bytes,
                    Directive::WorkgroupSize(Some(size)) => kernel.workgroup_size = size,
                    _ => {}
                }
            }
            ItemKind::Statement(statement) => {
                if let Some(kernel) = kernels.last_mut() {
                    kernel.statements.push(statement);
                }
            }
            ItemKind::Label(_) => {}
        }
    }
    kernels
}

fn images(
    program: &Program,
    sources: &[KernelSource],
    problems: &mut Vec<Diagnostic>,
) -> Vec<KernelImage> {
    if sources.len() != program.kernels.len() {
        problems.push(internal(
            Span::default(),
            "the kernels of the parse and of the program differ",
        ));
        return Vec::new();
    }
    let targets = label_offsets(
        program
            .kernels
            .iter()
            .map(|kernel| kernel.code.iter().map(|instr| instr.op)),
    );
    program
        .kernels
        .iter()
        .zip(sources)
        .zip(&targets)
        .map(|((kernel, source), targets)| KernelImage {
            name: kernel.name.clone(),
            register_count: source.register_count,
            local_memory: source.local_memory,
            workgroup_size: source.workgroup_size,
            code: code(kernel, &source.statements, targets, problems),
        })
        .collect()
}

fn code(
    kernel: &Kernel,
    statements: &[Statement],
    targets: &[u32],
    problems: &mut Vec<Diagnostic>,
) -> Vec<u8> {
    if statements.len() != kernel.code.len() {
        problems.push(internal(
            kernel.name_span,
            "the statements of the parse and the lowered code differ",
        ));
        return Vec::new();
    }
    let mut out = Vec::with_capacity(kernel.code.len() * 8);
    for ((instr, statement), span) in kernel.code.iter().zip(statements).zip(&kernel.spans) {
        if statement.span != *span {
            problems.push(internal(
                statement.span,
                "the statement and its lowered instruction differ",
            ));
            continue;
        }
        match instruction(instr, statement, targets) {
            Ok((encoding, instruction)) => encode(encoding, &instruction).write(&mut out),
            Err(problem) => problems.push(problem),
        }
    }
    out
}

fn internal(span: Span, what: &str) -> Diagnostic {
    Diagnostic::new(
        Severity::Error,
        span,
        format!("internal error while assembling: {what}"),
    )
}

fn unencodable(statement: &Statement, message: String, help: &str) -> Diagnostic {
    let mut diagnostic = Diagnostic::new(Severity::Error, statement.span, message);
    diagnostic.help = Some(help.to_string());
    diagnostic
}

/// The instruction `wave-asm` would encode for this statement.
fn instruction(
    instr: &Instr,
    statement: &Statement,
    targets: &[u32],
) -> Result<(&'static Encoding, Instruction), Diagnostic> {
    let written = &statement.mnemonic;
    let Some(encoding) = encoding_of(instr.op) else {
        return Err(unencodable(
            statement,
            format!("`{written}` has no .wbin encoding: it is docs dialect, and wave-asm has no such instruction"),
            "use the wave-asm form the warning on this line suggests",
        ));
    };
    if instr.flags & (flags::A_IMM | flags::B_IMM | flags::C_IMM) != 0 {
        return Err(unencodable(
            statement,
            format!("`{written}` with an immediate operand has no .wbin encoding: wave-asm takes an immediate only in `mov_imm`"),
            "load the value into a register with `mov_imm` first",
        ));
    }
    if instr.flags & flags::NEGATE_A != 0 {
        return Err(unencodable(
            statement,
            format!(
                "`{written} !p` has no .wbin encoding: wave-asm accepts `!` only in the `@` prefix"
            ),
            "compute the opposite condition into a predicate instead",
        ));
    }
    let predicate = match instr.guard.predicate() {
        // wave-asm encodes `@p0` as "no predicate".
        Some((0, false)) | None => None,
        guard => guard,
    };
    let r = Operand::Register;
    let p = Operand::Predicate;
    let destination = if instr.flags & flags::NO_DST != 0 {
        Vec::new()
    } else {
        vec![r(instr.dst)]
    };
    let scope = || {
        statement
            .operands
            .iter()
            .rev()
            .find_map(|operand| match operand.kind {
                OperandKind::Scope(scope) => Some(scope),
                _ => None,
            })
            .map(Operand::Scope)
            .ok_or_else(|| internal(statement.span, "the statement's scope is missing"))
    };
    let operands = match encoding.shape {
        Shape::Bare => Vec::new(),
        Shape::Unary => vec![r(instr.dst), r(instr.a)],
        Shape::Binary if matches!(instr.op, Op::MmaStoreC | Op::MmaCompute) => {
            vec![r(instr.a), r(instr.b), r(instr.c)]
        }
        Shape::Binary => vec![r(instr.dst), r(instr.a), r(instr.b)],
        Shape::Ternary => vec![r(instr.dst), r(instr.a), r(instr.b), r(instr.c)],
        Shape::Quaternary => vec![r(instr.dst), r(instr.a), r(instr.b), r(instr.c), r(instr.d)],
        Shape::Compare => vec![p(instr.dst), r(instr.a), r(instr.b)],
        Shape::Select => vec![r(instr.dst), p(instr.a), r(instr.b), r(instr.c)],
        Shape::Store => vec![r(instr.a), r(instr.b)],
        Shape::LocalAtomic => [destination, vec![r(instr.a), r(instr.b)]].concat(),
        Shape::LocalCas => [destination, vec![r(instr.a), r(instr.b), r(instr.c)]].concat(),
        Shape::DeviceAtomic => [destination, vec![r(instr.a), r(instr.b), scope()?]].concat(),
        Shape::DeviceCas => [
            destination,
            vec![r(instr.a), r(instr.b), r(instr.c), scope()?],
        ]
        .concat(),
        Shape::Ballot => vec![r(instr.dst), p(instr.a)],
        Shape::Vote => vec![p(instr.dst), p(instr.a)],
        Shape::Predicate => vec![p(instr.a)],
        Shape::Call => {
            let target = targets
                .get(instr.target as usize)
                .copied()
                .ok_or_else(|| internal(statement.span, "the call target is outside the kernel"))?;
            vec![Operand::Target(target)]
        }
        Shape::Fence => vec![scope()?],
        Shape::MovImm => vec![
            r(instr.dst),
            Operand::Immediate(immediate(instr, statement)),
        ],
        Shape::MovSr => {
            let special = SpecialRegister::ALL
                .get(instr.a as usize)
                .map(|(sr, _)| *sr)
                .ok_or_else(|| internal(statement.span, "unknown special register"))?;
            vec![r(instr.dst), Operand::Special(special)]
        }
    };
    let instruction = Instruction {
        op: encoding.op,
        predicate,
        operands,
    };
    Ok((encoding, instruction))
}

/// `mov_imm`'s value as wave-asm stores it: integers as their 32-bit two's complement, a float
/// literal as the low 32 bits of its f64 pattern (so `1.5` is 0).
fn immediate(instr: &Instr, statement: &Statement) -> u32 {
    match statement.operands.get(1).map(|operand| &operand.kind) {
        Some(OperandKind::Float(value)) => value.to_bits() as u32,
        Some(OperandKind::Int(value)) => *value as u32,
        _ => instr.imm,
    }
}
