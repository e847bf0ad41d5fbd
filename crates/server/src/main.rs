//! `menagerie-server`: the same server as `menagerie serve`, as a binary of its own (the
//! tests start it as a child process).

use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args = menagerie_server::ServeArgs::parse();
    match menagerie_server::run(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("menagerie serve: {e}");
            ExitCode::FAILURE
        }
    }
}
