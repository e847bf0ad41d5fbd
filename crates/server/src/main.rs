//! `menagerie-server`: the same server as `menagerie serve`, as a binary of its own (the
//! tests start it as a child process).

use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args = menagerie_server::ServeArgs::parse();
    match menagerie_server::run(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            // A closed stderr must not turn a clean failure into a panic.
            use std::io::Write as _;
            let _ = writeln!(std::io::stderr(), "menagerie serve: {e}");
            ExitCode::FAILURE
        }
    }
}
