//! Learning curves: win rates against self-play games, as CSV and as an SVG plot.

use std::fmt::Write as _;

/// One measurement: after `games` self-play games, the net won `win_rate` of
/// `eval_games` games against `opponent`.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct CurvePoint {
    /// Self-play games trained when measured.
    pub games: u64,
    /// The opponent's name (see [`Opponent::name`](crate::Opponent::name)).
    pub opponent: String,
    /// Share of the evaluation games the net won, in `[0, 1]`.
    pub win_rate: f64,
    /// Evaluation games played.
    pub eval_games: u64,
}

/// Win rates against self-play games, one series per opponent.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct LearningCurve {
    /// The measurements in the order they were taken.
    pub points: Vec<CurvePoint>,
}

const PALETTE: [&str; 6] = [
    "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf",
];

impl LearningCurve {
    /// An empty curve.
    #[must_use]
    pub fn new() -> Self {
        LearningCurve::default()
    }

    /// Adds a measurement.
    pub fn push(&mut self, games: u64, opponent: &str, win_rate: f64, eval_games: u64) {
        self.points.push(CurvePoint {
            games,
            opponent: opponent.to_owned(),
            win_rate,
            eval_games,
        });
    }

    /// The opponents in the order they first appear.
    #[must_use]
    pub fn opponents(&self) -> Vec<&str> {
        let mut names: Vec<&str> = Vec::new();
        for p in &self.points {
            if !names.contains(&p.opponent.as_str()) {
                names.push(&p.opponent);
            }
        }
        names
    }

    /// The curve as CSV with the header `games,opponent,win_rate,eval_games`.
    #[must_use]
    pub fn to_csv(&self) -> String {
        let mut s = String::from("games,opponent,win_rate,eval_games\n");
        for p in &self.points {
            let _ = writeln!(
                s,
                "{},{},{:.4},{}",
                p.games, p.opponent, p.win_rate, p.eval_games
            );
        }
        s
    }

    /// An SVG plot (640 x 400) of win rate (0 to 100 %) against self-play games: axes with
    /// ticks and labels, a grid, one line with markers per opponent and a legend.
    #[must_use]
    pub fn to_svg(&self, title: &str) -> String {
        let max_games = self.points.iter().map(|p| p.games).max().unwrap_or(0);
        let plot = Plot::new(nice_ceiling(max_games.max(1) as f64));
        let mut s = String::new();
        plot.write_frame(&mut s, title);
        plot.write_y_grid(&mut s);
        plot.write_x_ticks(&mut s);
        plot.write_axes(&mut s);
        for (i, name) in self.opponents().into_iter().enumerate() {
            let points: Vec<(f64, f64)> = self
                .points
                .iter()
                .filter(|p| p.opponent == name)
                .map(|p| (plot.x(p.games as f64), plot.y(p.win_rate)))
                .collect();
            plot.write_series(&mut s, i, name, &points);
        }
        s.push_str("</svg>\n");
        s
    }
}

/// The geometry of the learning-curve picture: a 640 × 400 canvas, the plot area inside its
/// margins (the legend on the right), games on x up to `x_max`, win rate 0–1 on y.
struct Plot {
    w: f64,
    h: f64,
    left: f64,
    top: f64,
    /// The plot area's width and height.
    pw: f64,
    ph: f64,
    x_max: f64,
}

impl Plot {
    fn new(x_max: f64) -> Plot {
        let (w, h) = (640.0, 400.0);
        let (left, right, top, bottom) = (64.0, 150.0, 40.0, 52.0);
        Plot {
            w,
            h,
            left,
            top,
            pw: w - left - right,
            ph: h - top - bottom,
            x_max,
        }
    }

    /// The x coordinate of `games` games.
    fn x(&self, games: f64) -> f64 {
        self.left + self.pw * games / self.x_max
    }

    /// The y coordinate of a win rate (clamped to 0–1).
    fn y(&self, rate: f64) -> f64 {
        self.top + self.ph * (1.0 - rate.clamp(0.0, 1.0))
    }

    /// The opening tag, the background and the title.
    fn write_frame(&self, s: &mut String, title: &str) {
        let (w, h) = (self.w, self.h);
        let _ = writeln!(
            s,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="sans-serif" font-size="12">"#
        );
        let _ = writeln!(s, r#"<rect width="{w}" height="{h}" fill="white"/>"#);
        let _ = writeln!(
            s,
            r#"<text x="{}" y="22" text-anchor="middle" font-size="15">{}</text>"#,
            self.left + self.pw / 2.0,
            escape(title)
        );
    }

    /// Horizontal grid lines and y ticks every 10 %.
    fn write_y_grid(&self, s: &mut String) {
        let left = self.left;
        for k in 0..=10 {
            let yy = self.y(f64::from(k) / 10.0);
            let _ = writeln!(
                s,
                r##"<line x1="{left}" y1="{yy:.1}" x2="{:.1}" y2="{yy:.1}" stroke="#ddd"/>"##,
                left + self.pw
            );
            let _ = writeln!(
                s,
                r#"<text x="{:.1}" y="{:.1}" text-anchor="end">{}%</text>"#,
                left - 6.0,
                yy + 4.0,
                k * 10
            );
        }
    }

    /// Six x ticks, from 0 to `x_max`.
    fn write_x_ticks(&self, s: &mut String) {
        let bottom = self.top + self.ph;
        let step = self.x_max / 5.0;
        for k in 0..=5 {
            let g = step * f64::from(k);
            let xx = self.x(g);
            let _ = writeln!(
                s,
                r##"<line x1="{xx:.1}" y1="{bottom:.1}" x2="{xx:.1}" y2="{:.1}" stroke="#000"/>"##,
                bottom + 5.0
            );
            let _ = writeln!(
                s,
                r#"<text x="{xx:.1}" y="{:.1}" text-anchor="middle">{}</text>"#,
                bottom + 18.0,
                format_count(g)
            );
        }
    }

    /// The axes and their labels.
    fn write_axes(&self, s: &mut String) {
        let (left, top) = (self.left, self.top);
        let _ = writeln!(
            s,
            r##"<path d="M{left},{top} V{:.1} H{:.1}" fill="none" stroke="#000"/>"##,
            top + self.ph,
            left + self.pw
        );
        let _ = writeln!(
            s,
            r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">self-play games</text>"#,
            left + self.pw / 2.0,
            self.h - 12.0
        );
        let _ = writeln!(
            s,
            r#"<text transform="translate(16 {:.1}) rotate(-90)" text-anchor="middle">win rate</text>"#,
            top + self.ph / 2.0
        );
    }

    /// The `i`-th opponent's curve through `points` (picture coordinates), its dots and its
    /// legend entry.
    fn write_series(&self, s: &mut String, i: usize, name: &str, points: &[(f64, f64)]) {
        let colour = PALETTE[i % PALETTE.len()];
        let list: Vec<String> = points
            .iter()
            .map(|(a, b)| format!("{a:.1},{b:.1}"))
            .collect();
        let _ = writeln!(
            s,
            r#"<polyline points="{}" fill="none" stroke="{colour}" stroke-width="2"/>"#,
            list.join(" ")
        );
        for (a, b) in points {
            let _ = writeln!(
                s,
                r#"<circle cx="{a:.1}" cy="{b:.1}" r="2.5" fill="{colour}"/>"#
            );
        }
        let ly = self.top + 10.0 + 20.0 * i as f64;
        let lx = self.left + self.pw + 12.0;
        let _ = writeln!(
            s,
            r#"<line x1="{lx:.1}" y1="{ly:.1}" x2="{:.1}" y2="{ly:.1}" stroke="{colour}" stroke-width="2"/>"#,
            lx + 20.0
        );
        let _ = writeln!(
            s,
            r#"<text x="{:.1}" y="{:.1}">{}</text>"#,
            lx + 26.0,
            ly + 4.0,
            escape(name)
        );
    }
}

/// The smallest of 1, 2, 2.5, 4, 5 times a power of ten that is at least `x`.
fn nice_ceiling(x: f64) -> f64 {
    let p = 10f64.powf(x.log10().floor());
    for m in [1.0, 2.0, 2.5, 4.0, 5.0, 10.0] {
        if m * p >= x {
            return m * p;
        }
    }
    10.0 * p
}

fn format_count(g: f64) -> String {
    if g >= 1000.0 && (g / 1000.0).fract() == 0.0 {
        format!("{}k", g / 1000.0)
    } else if g >= 1000.0 {
        format!("{:.1}k", g / 1000.0)
    } else {
        format!("{g}")
    }
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn svg_has_one_line_per_opponent_and_csv_one_row_per_point() {
        let mut c = LearningCurve::new();
        c.push(0, "random", 0.5, 100);
        c.push(0, "mcts-100", 0.1, 20);
        c.push(1000, "random", 0.9, 100);
        c.push(1000, "mcts-100", 0.3, 20);
        let svg = c.to_svg("size 3 <test>");
        assert_eq!(svg.matches("<polyline").count(), 2);
        assert_eq!(svg.matches("<circle").count(), 4);
        assert!(svg.contains("&lt;test&gt;"));
        assert!(svg.ends_with("</svg>\n"));
        let csv = c.to_csv();
        assert_eq!(csv.lines().count(), 5);
        assert!(csv.contains("1000,random,0.9000,100"));
    }

    #[test]
    fn nice_ceiling_rounds_up() {
        assert_eq!(nice_ceiling(40_000.0), 40_000.0);
        assert_eq!(nice_ceiling(41_000.0), 50_000.0);
        assert_eq!(nice_ceiling(1.0), 1.0);
        assert_eq!(nice_ceiling(3000.0), 4000.0);
        assert_eq!(nice_ceiling(180.0), 200.0);
    }
}
