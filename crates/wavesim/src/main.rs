//! `wavesim`: the playground's engine on the command line.
//!
//! `wavesim run FILE.wave` takes wave-emu's flags and prints its dump formats; `wavesim check
//! FILE.wave` lists diagnostics; `wavesim asm` and `wavesim dis` write and read `.wbin` binaries,
//! which `run` and `check` also take; `wavesim compare A B` runs two kernels and compares them.
//! Errors go to stderr with exit code 1 (2 for `compare`): `FILE:LINE:COL: error: …` with the
//! source line for a problem at a place in the file (see `report`), else `error: …`.

// Nothing here needs `unsafe`; the engine below keeps it behind validated kernels.
#![forbid(unsafe_code)]

mod asm;
mod check;
mod cli;
mod compare;
mod compat;
mod dump;
mod report;
mod run;
mod source;
mod spec;
mod trace;

use std::io::Write;
use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches};

use cli::{Cli, Command};
use source::Failure;

fn main() -> ExitCode {
    let matches = match Cli::command().try_get_matches() {
        Ok(matches) => matches,
        Err(e) => {
            // Help and version go to stdout with success; usage mistakes are errors like any other.
            let _ = e.print();
            return if e.use_stderr() {
                usage_error_code()
            } else {
                ExitCode::SUCCESS
            };
        }
    };
    let cli = match Cli::from_arg_matches(&matches) {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return usage_error_code();
        }
    };
    let result = match &cli.command {
        Command::Run(args) => {
            let sub = matches.subcommand_matches("run").unwrap_or(&matches);
            run::run(args, sub).map(|out| {
                print_stdout(&out);
                ExitCode::SUCCESS
            })
        }
        Command::Compare(args) => {
            let sub = matches.subcommand_matches("compare").unwrap_or(&matches);
            // Exit status 1 says the results differ, so a failure is 2 (see below).
            return match compare::compare(args, sub) {
                Ok(compared) => {
                    print_stdout(&compared.text);
                    ExitCode::from(u8::from(compared.results_differ))
                }
                Err(Failure(text)) => {
                    eprintln!("{text}");
                    ExitCode::from(2)
                }
            };
        }
        Command::Asm(args) => asm::assemble(args).map(|()| ExitCode::SUCCESS),
        Command::Dis(args) => asm::disassemble(args).map(|text| {
            print_stdout(&text);
            ExitCode::SUCCESS
        }),
        Command::Check(args) => check::check(args).map(|report| {
            print_stdout(&report.text);
            if report.errors > 0 {
                ExitCode::from(1)
            } else {
                let plural =
                    |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
                let warnings = if report.warnings > 0 {
                    format!(", {}", plural(report.warnings, "warning"))
                } else {
                    String::new()
                };
                eprintln!("ok: {}{warnings}", plural(report.kernels, "kernel"));
                ExitCode::SUCCESS
            }
        }),
    };
    result.unwrap_or_else(|Failure(text)| {
        eprintln!("{text}");
        ExitCode::from(1)
    })
}

/// The exit status of a usage mistake: 2 for `compare`, whose status 1 says that the results
/// differ, and 1 for every other command.
fn usage_error_code() -> ExitCode {
    if std::env::args_os()
        .nth(1)
        .is_some_and(|word| word == "compare")
    {
        ExitCode::from(2)
    } else {
        ExitCode::from(1)
    }
}

/// Writes to stdout, ignoring a closed pipe (`wavesim run … | head`).
fn print_stdout(text: &str) {
    let mut stdout = std::io::stdout().lock();
    let _ = stdout.write_all(text.as_bytes());
    let _ = stdout.flush();
}
