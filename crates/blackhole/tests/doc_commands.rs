//! The documentation's `blackhole` command lines parse with the program's options as they
//! are, and every option the Blackhole pages and experiment rows name exists.

use blackhole::cli::Cli;
use clap::error::ErrorKind;
use clap::{CommandFactory, Parser};

/// The pages whose `blackhole` command lines must parse.
const PAGES: [(&str, &str); 3] = [
    (
        "docs/blackhole.md",
        include_str!("../../../docs/blackhole.md"),
    ),
    ("crates/blackhole/README.md", include_str!("../README.md")),
    (
        "docs/reliability.md",
        include_str!("../../../docs/reliability.md"),
    ),
];

/// The register of Blackhole's experiments, whose rows name options.
const EXPERIMENTS: &str = include_str!("../../../docs/blackhole-experiments.md");

/// The placeholders of the pages' command templates, and values that stand for them.
const PLACEHOLDERS: [(&str, &str); 7] = [
    ("N", "10"),
    ("S", "1"),
    ("E", "15"),
    ("K", "2"),
    ("FILE", "games.txt"),
    ("RECORDS", "records.txt"),
    ("[--list]", "--list"),
];

/// The words of a shell command line: spaces split them, double quotes group them.
fn words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let (mut quoted, mut started) = (false, false);
    for c in line.chars() {
        match c {
            '"' => (quoted, started) = (!quoted, true),
            ' ' if !quoted => {
                if started {
                    words.push(std::mem::take(&mut word));
                }
                started = false;
            }
            _ => (word, started) = (word + &c.to_string(), true),
        }
    }
    if started {
        words.push(word);
    }
    words
}

/// The program's arguments if `line` runs `blackhole` (or `B`, the pages' name for the built
/// binary), after any environment settings; placeholders replaced.
fn blackhole_args(line: &str) -> Option<Vec<String>> {
    let words = words(line.trim());
    let mut rest = words
        .iter()
        .skip_while(|w| w.contains('=') && !w.starts_with('-'));
    let program = rest.next()?;
    if program != "blackhole" && program != "B" {
        return None;
    }
    let args = rest.map(|w| {
        PLACEHOLDERS
            .iter()
            .find(|(p, _)| p == w)
            .map_or(w.clone(), |(_, v)| (*v).to_string())
    });
    Some(
        std::iter::once("blackhole".to_string())
            .chain(args)
            .collect(),
    )
}

/// The inline code spans of `text`, outside its fenced code blocks (a span may run over a
/// line break).
fn code_spans(text: &str) -> Vec<String> {
    let mut inside = false;
    let mut prose = String::new();
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            inside = !inside;
        } else if !inside {
            prose.push_str(line);
            prose.push(' ');
        }
    }
    prose
        .split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_string)
        .collect()
}

/// The lines of the fenced code blocks of `text`, comments cut, a line ending in ` \` (the
/// shell's continuation) joined with the next.
fn code_block_lines(text: &str) -> Vec<String> {
    let mut inside = false;
    let mut lines = Vec::new();
    let mut pending = String::new();
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            inside = !inside;
        } else if inside {
            let code = line.split(" # ").next().unwrap_or(line);
            match code.strip_suffix(" \\") {
                Some(head) => pending = pending + head.trim_start() + " ",
                None => lines.push(std::mem::take(&mut pending) + code.trim_start()),
            }
        }
    }
    lines
}

/// Parses a command line of `page`, and each program command quoted in it that runs
/// `blackhole` too (a referee's players).
fn check_parses(page: &str, args: &[String], checked: &mut usize) {
    if let Err(e) = Cli::try_parse_from(args)
        && e.kind() != ErrorKind::DisplayHelp
    {
        panic!("{page}: `{}` does not parse:\n{e}", args.join(" "));
    }
    *checked += 1;
    for quoted in args.iter().filter(|a| a.contains(' ')) {
        if let Some(inner) = blackhole_args(quoted) {
            check_parses(page, &inner, checked);
        }
    }
}

#[test]
fn every_blackhole_command_line_of_the_pages_parses() {
    let mut checked = 0;
    for (page, text) in PAGES {
        let (spans, blocks) = (code_spans(text), code_block_lines(text));
        for line in blocks.iter().chain(spans.iter()).map(String::as_str) {
            if let Some(args) = blackhole_args(line) {
                check_parses(page, &args, &mut checked);
            }
        }
    }
    // The quick starts, the numbered commands of the results and the referee's players.
    assert!(checked > 20, "only {checked} command lines found");
}

/// Every long option of the program, of any subcommand, with its aliases (and clap's own).
fn all_options() -> Vec<String> {
    let command = Cli::command();
    let mut options = vec!["help".to_string(), "version".to_string()];
    for sub in command.get_subcommands() {
        for arg in sub.get_arguments() {
            options.extend(arg.get_long().map(str::to_string));
            options.extend(
                arg.get_all_aliases()
                    .into_iter()
                    .flatten()
                    .map(str::to_string),
            );
        }
    }
    options
}

/// The options named in the code spans of `text` (not in `cargo` commands).
fn options_named(text: &str) -> Vec<String> {
    code_spans(text)
        .into_iter()
        .filter(|span| !span.starts_with("cargo"))
        .flat_map(|span| words(&span))
        .filter(|w| w.starts_with("--") && w.len() > 2)
        .map(|w| w[2..].split('=').next().unwrap_or_default().to_string())
        .collect()
}

#[test]
fn every_option_the_blackhole_pages_and_experiments_name_exists() {
    let known = all_options();
    let (blackhole_md, readme) = (PAGES[0].1, PAGES[1].1);
    let mut named = 0;
    for (page, text) in [
        ("docs/blackhole-experiments.md", EXPERIMENTS),
        ("docs/blackhole.md", blackhole_md),
        ("crates/blackhole/README.md", readme),
    ] {
        for option in options_named(text) {
            assert!(known.contains(&option), "{page}: no option --{option}");
            named += 1;
        }
    }
    assert!(named > 50, "only {named} options named");
}

#[test]
fn the_command_line_reader_splits_quotes_and_replaces_placeholders() {
    let args = blackhole_args(r#"BH_EACH=1 B referee -n N "B player --seed 5" W"#).unwrap();
    assert_eq!(
        args,
        ["blackhole", "referee", "-n", "10", "B player --seed 5", "W"]
    );
    assert_eq!(blackhole_args("cargo run --example blackhole"), None);
    assert_eq!(
        options_named("`--gamma 0.6` and `--seed=2` but `cargo --release`"),
        ["gamma", "seed"]
    );
}
