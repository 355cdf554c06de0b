//! The build: the source, what it compiled to, the launch form and what it validated to, and
//! where the work came from (a gallery example and its result check). Everything a run is
//! started from, and everything the views need to turn an instruction index into a line.

use wave_engine::program::{Kernel, Program};
use wave_engine::syntax::questions::{Question, QuestionKind};
use wave_engine::{compile, Compiled, Diagnostic};

use crate::check::Check;
use crate::examples::{self, Example};
use crate::form::{ConfigForm, FormErrors, ValidLaunch};

/// The source, its compile and the launch it validates to.
#[derive(Debug)]
pub(crate) struct Build {
    source: String,
    diagnostics: Vec<Diagnostic>,
    /// The teaching questions written in the source's comments.
    questions: Vec<Question>,
    /// The last program that compiled without errors (kept while the source has errors).
    program: Option<Program>,
    /// True when `program` was compiled from the current `source`.
    program_current: bool,
    form: ConfigForm,
    form_errors: FormErrors,
    launch: Option<ValidLaunch>,
    /// Registers written anywhere in the selected kernel's source, ascending.
    used_registers: Vec<u8>,
    /// The result check of the loaded example, if any.
    check: Option<Check>,
    /// The gallery example this work came from, while it still is that example.
    example: Option<ExampleOrigin>,
    /// The lesson of an opened pack this work came from, while it still is that lesson.
    pack_lesson: Option<PackLessonOrigin>,
}

/// A lesson of a lesson pack a session started from: the pack is the app's, the session keeps
/// only its name and the lesson's id (which name its progress), and forgets them as it forgets an
/// example.
#[derive(Clone, Debug)]
struct PackLessonOrigin {
    /// `Pack::key`, then `/`, then the lesson's id.
    key: String,
    kernels: Vec<String>,
}

/// The example a session started from, kept through edits (then marked edited) until the source
/// no longer declares any of the example's kernels.
#[derive(Clone, Debug)]
struct ExampleOrigin {
    id: &'static str,
    /// The example's own source, to tell whether the work is edited.
    source: String,
    /// Kernel names the example declares.
    kernels: Vec<String>,
}

impl ExampleOrigin {
    fn of(example: &Example) -> Self {
        let kernels = compile(&example.source)
            .program
            .map(|p| p.kernels.into_iter().map(|k| k.name).collect())
            .unwrap_or_default();
        ExampleOrigin {
            id: example.id,
            source: example.source.clone(),
            kernels,
        }
    }
}

impl Build {
    /// No source yet, `form` as the launch configuration (nothing validated until a source is
    /// set).
    pub(crate) fn new(form: ConfigForm) -> Self {
        Build {
            source: String::new(),
            diagnostics: Vec::new(),
            questions: Vec::new(),
            program: None,
            program_current: false,
            form,
            form_errors: FormErrors::default(),
            launch: None,
            used_registers: Vec::new(),
            check: None,
            example: None,
            pack_lesson: None,
        }
    }

    /// Takes `compiled`, the compile of `source`: keeps the last good program when there are
    /// errors, forgets an example the source no longer is, and revalidates the form.
    pub(crate) fn set_compiled(&mut self, source: String, compiled: Compiled) {
        self.source = source;
        self.diagnostics = compiled.diagnostics;
        self.questions = compiled.questions;
        match compiled.program {
            Some(program) => {
                self.program = Some(program);
                self.program_current = true;
            }
            None => self.program_current = false,
        }
        self.forget_example_if_replaced();
        self.validate();
    }

    /// Replaces the launch configuration form and revalidates it.
    pub(crate) fn set_form(&mut self, form: ConfigForm) {
        self.form = form;
        self.validate();
    }

    /// Validates the form against the current program, and finds the registers its kernel uses.
    fn validate(&mut self) {
        self.used_registers = match (self.program_current, self.kernel()) {
            (true, Some(kernel)) => used_registers(kernel),
            _ => Vec::new(),
        };
        let kernel = if self.program_current {
            self.kernel()
        } else {
            None
        };
        match self.form.validate(kernel, self.program_current) {
            Ok(launch) => {
                self.form_errors = FormErrors::default();
                self.launch = Some(launch);
            }
            Err(errors) => {
                self.form_errors = errors;
                self.launch = None;
            }
        }
    }

    pub(crate) fn source(&self) -> &str {
        &self.source
    }

    pub(crate) fn diagnostics(&self) -> &[Diagnostic] {
        &self.diagnostics
    }

    /// Errors in the current source.
    pub(crate) fn error_count(&self) -> usize {
        self.diagnostics.iter().filter(|d| d.is_error()).count()
    }

    /// The last program that compiled without errors.
    pub(crate) fn program(&self) -> Option<&Program> {
        self.program.as_ref()
    }

    /// Whether [`Build::program`] was compiled from the current source.
    pub(crate) fn program_current(&self) -> bool {
        self.program_current
    }

    pub(crate) fn form(&self) -> &ConfigForm {
        &self.form
    }

    pub(crate) fn form_errors(&self) -> &FormErrors {
        &self.form_errors
    }

    pub(crate) fn launch(&self) -> Option<&ValidLaunch> {
        self.launch.as_ref()
    }

    /// Registers the kernel's source mentions, ascending.
    pub(crate) fn used_registers(&self) -> &[u8] {
        &self.used_registers
    }

    /// The kernel that runs: the form's pick, or the first kernel when the pick is empty.
    pub(crate) fn kernel(&self) -> Option<&Kernel> {
        let program = self.program.as_ref()?;
        let name = self.form.kernel.trim();
        if name.is_empty() {
            program.kernels.first()
        } else {
            program.kernel(name)
        }
    }

    /// Names of the kernels of the last good program.
    pub(crate) fn kernel_names(&self) -> Vec<String> {
        self.program
            .iter()
            .flat_map(|p| p.kernels.iter().map(|k| k.name.clone()))
            .collect()
    }

    /// The source line of instruction `pc` of the running kernel.
    pub(crate) fn line_of(&self, pc: u32) -> Option<u32> {
        self.kernel()?.lines.get(pc as usize).copied()
    }

    /// The first line at or after `line` that has an instruction of the running kernel.
    pub(crate) fn instruction_line_at_or_after(&self, line: u32) -> Option<u32> {
        self.kernel()?
            .lines
            .iter()
            .copied()
            .filter(|&l| l >= line)
            .min()
    }

    /// The source text of `line`, without its comment.
    pub(crate) fn code_text(&self, line: u32) -> String {
        let text = self
            .source
            .lines()
            .nth(line.saturating_sub(1) as usize)
            .unwrap_or("");
        let code = text.split([';', '#']).next().unwrap_or("");
        code.split_whitespace().collect::<Vec<_>>().join(" ")
    }

    /// The teaching questions the source asks, each with its 1-based line, in source order.
    pub(crate) fn question_lines(&self) -> Vec<(u32, QuestionKind)> {
        // One pass over the source: the questions come in order.
        let (mut line, mut counted) = (1u32, 0usize);
        self.questions
            .iter()
            .map(|q| {
                let at = (q.span.start as usize).min(self.source.len());
                line += self.source.as_bytes()[counted..at]
                    .iter()
                    .filter(|&&b| b == b'\n')
                    .count() as u32;
                counted = at;
                (line, q.kind)
            })
            .collect()
    }

    pub(crate) fn check(&self) -> Option<Check> {
        self.check
    }

    pub(crate) fn set_check(&mut self, check: Option<Check>) {
        self.check = check;
    }

    /// Marks the work as the gallery example `example` (its check included).
    pub(crate) fn start_from_example(&mut self, example: &Example) {
        self.check = example.check;
        self.example = Some(ExampleOrigin {
            id: example.id,
            source: example.source.clone(),
            kernels: self.kernel_names(),
        });
    }

    /// The id of the gallery example this work came from.
    pub(crate) fn example(&self) -> Option<&'static str> {
        self.example.as_ref().map(|e| e.id)
    }

    /// The source differs from the example's own.
    pub(crate) fn example_edited(&self) -> bool {
        self.example
            .as_ref()
            .is_some_and(|e| e.source != self.source)
    }

    /// Remembers that this work came from the example `id` (a share link or autosave says so);
    /// the id may name a gallery example or one run of a lesson pair. An id neither has, or an
    /// example whose kernels the source no longer declares, is ignored.
    pub(crate) fn remember_example(&mut self, id: Option<&str>) {
        self.example = id
            .and_then(|id| examples::example(id).or_else(|| examples::pair_run(id)))
            .map(|e| ExampleOrigin::of(&e));
        self.forget_example_if_replaced();
    }

    /// Marks the work as the lesson named `key` (`Pack::key`, `/`, the lesson's id) of an open
    /// pack; `None` forgets it. Like an example, it is forgotten once the source declares none of
    /// the lesson's kernels.
    pub(crate) fn set_pack_lesson(&mut self, key: Option<String>) {
        let kernels = self
            .program
            .as_ref()
            .filter(|_| self.program_current)
            .map(|p| p.kernels.iter().map(|k| k.name.clone()).collect())
            .unwrap_or_default();
        self.pack_lesson = key.map(|key| PackLessonOrigin { key, kernels });
    }

    /// The pack lesson this work came from, as `Pack::key/id`.
    pub(crate) fn pack_lesson(&self) -> Option<&str> {
        self.pack_lesson.as_ref().map(|l| l.key.as_str())
    }

    /// Forgets the example once the source, compiled without errors, declares none of its
    /// kernels: the work is something else now. (Sources with errors keep it: that is typing.)
    fn forget_example_if_replaced(&mut self) {
        if let (Some(lesson), true, Some(program)) =
            (&self.pack_lesson, self.program_current, &self.program)
        {
            if !lesson.kernels.is_empty()
                && !program
                    .kernels
                    .iter()
                    .any(|k| lesson.kernels.contains(&k.name))
            {
                self.pack_lesson = None;
            }
        }
        let replaced = match (&self.example, self.program_current, &self.program) {
            (Some(example), true, Some(program)) => !program
                .kernels
                .iter()
                .any(|k| example.kernels.contains(&k.name)),
            _ => false,
        };
        if replaced {
            self.example = None;
        }
    }
}

/// The registers `kernel` uses that its register file has, ascending.
fn used_registers(kernel: &Kernel) -> Vec<u8> {
    kernel
        .used_registers
        .iter()
        .copied()
        .filter(|&r| u32::from(r) < kernel.register_file_size)
        .collect()
}
