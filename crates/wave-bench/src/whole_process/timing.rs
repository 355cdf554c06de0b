//! Timing a command as a whole process, from its start to its exit, as a user at a shell sees it.

use std::fs::File;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// One command line: the program, its arguments, the directory it runs in, and the file there
/// that its standard output goes to (as `> FILE` would send it; a terminal or a pipe would add
/// costs of their own to both engines).
pub struct Invocation {
    pub program: PathBuf,
    pub args: Vec<String>,
    pub dir: PathBuf,
    pub stdout: String,
}

impl Invocation {
    /// Runs the command once and returns the wall-clock time from spawning it to its exit.
    pub fn time(&self) -> Result<Duration, String> {
        let name = self.program.display();
        let path = self.dir.join(&self.stdout);
        let stdout =
            File::create(&path).map_err(|e| format!("cannot create {}: {e}", path.display()))?;
        let start = Instant::now();
        let output = Command::new(&self.program)
            .args(&self.args)
            .current_dir(&self.dir)
            .stdin(Stdio::null())
            .stdout(stdout)
            .stderr(Stdio::piped())
            .output()
            .map_err(|e| format!("cannot run {name}: {e}"))?;
        let time = start.elapsed();
        if !output.status.success() {
            return Err(format!(
                "{name} failed ({}): {}",
                output.status,
                String::from_utf8_lossy(&output.stderr).trim_end()
            ));
        }
        Ok(time)
    }

    /// The command as typed in its directory, `program` standing for the program's path (our
    /// arguments have no spaces or quotes).
    pub fn shell_line(&self, program: &str) -> String {
        format!("{program} {} > {}", self.args.join(" "), self.stdout)
    }
}

/// `reps` timed runs of each command, taking turns (a, b, a, b, ...) after one untimed run of
/// each, so that a slow spell of a shared machine falls on both rather than on one.
pub fn in_turns(
    a: &Invocation,
    b: &Invocation,
    reps: u32,
) -> Result<(Vec<Duration>, Vec<Duration>), String> {
    a.time()?;
    b.time()?;
    let (mut a_times, mut b_times) = (Vec::new(), Vec::new());
    for _ in 0..reps {
        a_times.push(a.time()?);
        b_times.push(b.time()?);
    }
    Ok((a_times, b_times))
}

/// The median (the mean of the middle two for an even count); zero for no times.
pub fn median(times: &[Duration]) -> Duration {
    let mut sorted = times.to_vec();
    sorted.sort();
    match sorted.len() {
        0 => Duration::ZERO,
        n if n % 2 == 1 => sorted[n / 2],
        n => (sorted[n / 2 - 1] + sorted[n / 2]) / 2,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_median_is_the_middle_time() {
        let ms = Duration::from_millis;
        assert_eq!(median(&[ms(30), ms(10), ms(20)]), ms(20));
        assert_eq!(median(&[ms(40), ms(10), ms(20), ms(30)]), ms(25));
        assert_eq!(median(&[]), Duration::ZERO);
    }
}
