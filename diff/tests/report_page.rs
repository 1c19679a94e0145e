//! The conformance page as a person sees it: rendered by a real headless Chromium at a phone's
//! width (390 px) and a desktop's (1,400 px), it must not scroll sideways, must load nothing
//! from outside, and a cell's link must open the list of its failures. Without a browser the
//! test says it is skipped; with CANONFUZZ_REQUIRE_BROWSER set (as `.ci/run` sets it, after
//! installing Debian's chromium) a missing browser fails it.

use std::path::{Path, PathBuf};
use std::process::Command;

use canonfuzz_diff::campaign::Harness;
use canonfuzz_diff::families::jcs;
use canonfuzz_diff::matrix::build;
use canonfuzz_diff::mutants::find;

fn browser() -> Option<PathBuf> {
    let named = std::env::var_os("CANONFUZZ_CHROMIUM").map(PathBuf::from);
    named
        .into_iter()
        .chain(["/usr/bin/chromium", "/usr/bin/chromium-browser"].map(PathBuf::from))
        .find(|p| p.exists())
}

/// What the page measures of itself once loaded at `width`, opened at `fragment`.
fn measure(chromium: &Path, page: &str, dir: &Path, width: u32, fragment: &str) -> String {
    let probe = r#"<script>
window.addEventListener('load', () => {
  const misses = [...document.querySelectorAll('section.misses')];
  const shown = misses.filter((s) => getComputedStyle(s).display !== 'none').map((s) => s.id);
  const wide = document.documentElement.scrollWidth > window.innerWidth;
  document.title = 'measured:' + JSON.stringify({ wide, shown, sections: misses.length });
});
</script></body>"#;
    let file = dir.join(format!("page-{width}.html"));
    std::fs::write(&file, page.replace("</body>", probe)).unwrap();
    let profile = tempfile::tempdir().unwrap();
    let out = Command::new(chromium)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .arg(format!("--window-size={width},900"))
        .arg("--dump-dom")
        .arg(format!("file://{}{fragment}", file.display()))
        .output()
        .expect("chromium runs");
    let dom = String::from_utf8_lossy(&out.stdout).into_owned();
    let start = dom
        .find("<title>measured:")
        .unwrap_or_else(|| panic!("the page did not measure itself: {dom:.400}"));
    let rest = &dom[start + "<title>measured:".len()..];
    rest[..rest.find("</title>").unwrap()].replace("&quot;", "\"")
}

#[test]
fn the_page_reads_at_a_phones_width_and_a_desktops_and_its_cells_open() {
    let Some(chromium) = browser() else {
        assert!(
            std::env::var_os("CANONFUZZ_REQUIRE_BROWSER").is_none(),
            "CANONFUZZ_REQUIRE_BROWSER is set but no chromium was found"
        );
        eprintln!("SKIPPED: no headless browser (install Debian's chromium to run this check)");
        return;
    };
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus");
    let mutant = find(jcs::FAMILY, "utf8-member-order")
        .unwrap()
        .implementation();
    let harness = Harness::with(jcs::FAMILY, vec![Box::new(mutant)]);
    let matrix = build(&harness, Vec::new(), &corpus).unwrap();
    let page = matrix.html();
    assert!(
        !page.contains("http://") && !page.contains("https://"),
        "the page loads something from outside"
    );
    let link = page
        .split("<a href=\"#")
        .nth(1)
        .and_then(|s| s.split('"').next())
        .expect("a failing cell links to its failures")
        .to_string();
    let dir = tempfile::tempdir().unwrap();
    for width in [390, 1400] {
        let closed = measure(&chromium, &page, dir.path(), width, "");
        assert!(closed.contains("\"wide\":false"), "{width} px: {closed}");
        assert!(closed.contains("\"shown\":[]"), "{width} px: {closed}");
        let opened = measure(&chromium, &page, dir.path(), width, &format!("#{link}"));
        assert!(
            opened.contains(&format!("\"shown\":[\"{link}\"]")),
            "{width} px, #{link}: {opened}"
        );
    }
    // The check can fail: the same page without its scrolling table boxes overflows a phone.
    let unboxed = page.replace(".scroll{overflow-x:auto;max-width:100%}", "");
    let measured = measure(&chromium, &unboxed, dir.path(), 390, "");
    assert!(measured.contains("\"wide\":true"), "{measured}");
}
