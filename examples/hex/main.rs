//! hex on rave-mcts (in progress).

fn main() {
    eprintln!("the hex example is being written");
    std::process::exit(2);
}
