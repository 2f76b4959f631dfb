//! A small self-contained SVG line plot for the benchmarks' figures.

/// `points` (x, milliseconds) with x on a log scale, titled `title`, the x axis named `x_label`.
pub fn svg(title: &str, x_label: &str, points: &[(usize, f64)]) -> String {
    let (w, h, left, right, top, bottom) = (640.0, 360.0, 70.0, 20.0, 40.0, 50.0);
    let lx = |n: usize| (n.max(1) as f64).log10();
    let (x0, x1) = (
        points
            .iter()
            .map(|p| lx(p.0))
            .fold(f64::MAX, f64::min)
            .floor(),
        points
            .iter()
            .map(|p| lx(p.0))
            .fold(f64::MIN, f64::max)
            .ceil(),
    );
    let y1 = points.iter().map(|p| p.1).fold(0.0, f64::max).max(1.0) * 1.15;
    let x = |n: usize| left + (lx(n) - x0) / (x1 - x0).max(1.0) * (w - left - right);
    let y = |v: f64| h - bottom - v / y1 * (h - top - bottom);
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" font-family=\"sans-serif\" font-size=\"12\">\n\
         <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n\
         <text x=\"{left}\" y=\"22\" font-size=\"14\">{title}</text>\n"
    );
    let mut decade = x0 as i32;
    while decade <= x1 as i32 {
        let px = x(10usize.pow(decade as u32));
        svg += &format!(
            "<line x1=\"{px:.1}\" y1=\"{top}\" x2=\"{px:.1}\" y2=\"{:.1}\" stroke=\"#ddd\"/>\n\
             <text x=\"{px:.1}\" y=\"{:.1}\" text-anchor=\"middle\">10^{decade}</text>\n",
            h - bottom,
            h - bottom + 18.0
        );
        decade += 1;
    }
    for i in 0..=4 {
        let v = y1 / 4.0 * f64::from(i);
        svg += &format!(
            "<line x1=\"{left}\" y1=\"{py:.1}\" x2=\"{:.1}\" y2=\"{py:.1}\" stroke=\"#eee\"/>\n\
             <text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{v:.0}</text>\n",
            w - right,
            left - 6.0,
            y(v) + 4.0,
            py = y(v)
        );
    }
    svg += &format!(
        "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{x_label}</text>\n\
         <text transform=\"translate(18 {:.1}) rotate(-90)\" text-anchor=\"middle\">ms</text>\n",
        (left + w - right) / 2.0,
        h - 10.0,
        (top + h - bottom) / 2.0
    );
    let path: Vec<String> = points
        .iter()
        .map(|&(n, v)| format!("{:.1},{:.1}", x(n), y(v)))
        .collect();
    svg += &format!(
        "<polyline points=\"{}\" fill=\"none\" stroke=\"#c0392b\" stroke-width=\"2\"/>\n",
        path.join(" ")
    );
    for &(n, v) in points {
        svg += &format!(
            "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"4\" fill=\"#c0392b\"/>\n\
             <text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{v:.1} ms</text>\n",
            x(n),
            y(v),
            x(n),
            y(v) - 10.0
        );
    }
    svg + "</svg>\n"
}
