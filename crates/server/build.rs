//! Embeds the players' guides (`docs/rules/*.md`) when they exist.

use std::fmt::Write as _;
use std::path::PathBuf;

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap_or_default());
    let dir = manifest.join("../../docs/rules");
    println!("cargo:rerun-if-changed={}", dir.display());
    // The pages are embedded by include_dir!, which cargo does not track: rebuild when they change.
    println!("cargo:rerun-if-changed={}", manifest.join("web").display());
    let mut out = String::from(
        "/// The players' guides: (variant id, Markdown).\npub const RULES: &[(&str, &str)] = &[\n",
    );
    if let Ok(entries) = std::fs::read_dir(&dir) {
        let mut files: Vec<PathBuf> = entries.filter_map(|e| e.ok()).map(|e| e.path()).collect();
        files.sort();
        for f in files {
            if f.extension().and_then(|e| e.to_str()) != Some("md") {
                continue;
            }
            let Some(stem) = f.file_stem().and_then(|s| s.to_str()) else {
                continue;
            };
            println!("cargo:rerun-if-changed={}", f.display());
            let _ = writeln!(
                out,
                "    ({stem:?}, include_str!({:?})),",
                f.display().to_string()
            );
        }
    }
    out.push_str("];\n");
    let dest = PathBuf::from(std::env::var("OUT_DIR").unwrap_or_default()).join("rules_docs.rs");
    if let Err(e) = std::fs::write(&dest, out) {
        panic!("cannot write {}: {e}", dest.display());
    }
}
