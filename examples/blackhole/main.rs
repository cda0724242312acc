//! blackhole on rave-mcts (in progress).

fn main() {
    eprintln!("the blackhole example is being written");
    std::process::exit(2);
}
