//! The desktop app driven as a user drives it: WebDriver through tauri-driver (WebKitWebDriver) on an X
//! display (run under `xvfb-run`). Native file dialogs cannot be driven by WebDriver, so the test
//! replaces `window.__TAURI__.dialog` with a stub that answers with the test's paths; everything else
//! (buttons, slider, keyboard, IPC, Rust commands, the file written by export) is the real app.
//! Screenshots of the main screens are written to `docs/screenshots/` when `TONGWEN_SCREENSHOTS=1`.
//! The helpers (starting the app, clicking, waiting) are in the crate's lib.rs.

use std::path::Path;
use std::process::Command;

use thirtyfour::prelude::*;
use tongwen_e2e::*;

#[tokio::test(flavor = "multi_thread")]
async fn add_check_threshold_compare_export() -> WebDriverResult<()> {
    let home = tempfile::tempdir().expect("tmp");
    session(home.path(), |driver, home| async move {
        let result = scenario(&driver, home).await;
        (driver, result)
    })
    .await
}

/// A teacher's first hour: the library the `tongwen` command wrote is the app's; the sample report
/// shows and attributes everything it counts; the sample class shows its pair and group; the toolbars
/// stay on one row at 1280 × 800 in both languages.
#[tokio::test(flavor = "multi_thread")]
async fn first_hour_one_library_samples_and_one_row_toolbars() -> WebDriverResult<()> {
    let home = tempfile::tempdir().expect("tmp");
    // Before the app first starts, the command adds a document to its default library (no --library),
    // with the same data folder as the app.
    let doc = home.path().join("from-the-command.txt");
    std::fs::write(
        &doc,
        "这一段由命令行工具加入默认文献库，应用第一次启动时就应当在文献库页面里看到它。\n",
    )
    .expect("write the document");
    add_with_the_command(home.path(), &doc);
    session(home.path(), |driver, home| async move {
        let result = first_hour(&driver, home).await;
        (driver, result)
    })
    .await
}

/// Per paragraph of the report on screen: its counted share (`data-share`), the share of its
/// non-whitespace characters inside marks, and how many sources it lists.
const MARKED_SHARES: &str = "
    const out = [];
    const solid = (s) => [...s].filter((c) => !/\\s/.test(c)).length;
    for (const p of document.querySelectorAll('#paragraphs .para')) {
      const text = p.querySelector('.para-text');
      const all = solid(text.textContent);
      let marked = 0;
      for (const m of text.querySelectorAll('mark')) marked += solid(m.textContent);
      out.push([Number(p.dataset.share), all ? marked / all : 0, p.querySelectorAll('.para-sources li').length]);
    }
    return out;";

/// The visible toolbars whose items do not all stand on one row.
const WRAPPED_TOOLBARS: &str = "
    const wrapped = [];
    for (const bar of document.querySelectorAll('.toolbar')) {
      if (!bar.offsetParent) continue;
      const tops = [...bar.children]
        .filter((c) => c.offsetParent && c.getBoundingClientRect().height > 0)
        .map((c) => c.getBoundingClientRect().top);
      if (tops.length && Math.max(...tops) - Math.min(...tops) > 8) wrapped.push(bar.parentElement.id || bar.className);
    }
    return wrapped;";

async fn toolbars_on_one_row(driver: &WebDriver, lang: &str) -> WebDriverResult<()> {
    for tab in ["tab-library", "tab-check", "tab-class", "tab-settings"] {
        driver.find(By::Id(tab)).await?.click().await?;
        let wrapped = driver
            .execute(WRAPPED_TOOLBARS, vec![])
            .await?
            .json()
            .clone();
        assert_eq!(
            wrapped,
            serde_json::json!([]),
            "{lang}: toolbars wrapped on {tab}"
        );
        if tab == "tab-check" {
            screenshot(driver, &format!("12-check-{lang}")).await;
        }
    }
    Ok(())
}

async fn first_hour(driver: &WebDriver, _home: &Path) -> WebDriverResult<()> {
    driver.set_window_rect(0, 0, 1280, 800).await.ok();
    driver.find(By::Id("tab-library")).await?.click().await?;
    wait_count(
        driver,
        "the document the command added",
        "#library-table tr[data-id]",
        1,
    )
    .await?;
    toolbars_on_one_row(driver, "en").await?;

    // The sample report: every paragraph's marked characters are its counted ones, each with a source.
    driver.find(By::Id("tab-check")).await?.click().await?;
    click(driver, "check-sample").await?;
    wait_for("the sample report", || async {
        Ok(!driver
            .find_all(By::Css("#paragraphs .para.flagged"))
            .await?
            .is_empty())
    })
    .await?;
    let shares = driver.execute(MARKED_SHARES, vec![]).await?.json().clone();
    let shares = shares.as_array().expect("paragraphs");
    assert!(shares.len() >= 4, "{shares:?}");
    for (i, p) in shares.iter().enumerate() {
        let (counted, marked, sources) = (
            p[0].as_f64().unwrap_or(-1.0),
            p[1].as_f64().unwrap_or(-1.0),
            p[2].as_u64().unwrap_or(0),
        );
        assert!(
            (counted - marked).abs() < 0.002,
            "paragraph {}: counted {counted}, marked {marked}",
            i + 1
        );
        assert!(
            counted == 0.0 || sources > 0,
            "paragraph {}: counted text without a listed source",
            i + 1
        );
    }
    screenshot(driver, "10-sample-report").await;

    // The sample class: its one pair and one group.
    driver.find(By::Id("tab-class")).await?.click().await?;
    click(driver, "class-sample").await?;
    wait_count(
        driver,
        "the sample class's pair",
        "#class-pairs tbody tr",
        1,
    )
    .await?;
    assert_eq!(
        driver.find_all(By::Css("#class-groups > li")).await?.len(),
        1
    );
    screenshot(driver, "11-sample-class").await;

    // In Chinese too.
    switch_to_chinese(driver).await?;
    toolbars_on_one_row(driver, "zh").await
}

async fn scenario(driver: &WebDriver, home: &Path) -> WebDriverResult<()> {
    driver.set_window_rect(0, 0, 1280, 800).await.ok();
    // First start: empty library, the sample is offered.
    driver.find(By::Id("tab-library")).await?.click().await?;
    wait_for("the empty library", || async {
        driver
            .find(By::Id("try-sample"))
            .await?
            .is_displayed()
            .await
    })
    .await?;
    screenshot(driver, "01-first-start").await;

    // Add library documents through the "add files" button.
    let (library, submission) = inputs(home);
    let paths: Vec<String> = library.iter().map(|p| p.display().to_string()).collect();
    stub_dialog(driver, serde_json::json!(paths)).await?;
    driver
        .find(By::Id("library-add-files"))
        .await?
        .click()
        .await?;
    wait_for("library rows", || async {
        Ok(driver
            .find_all(By::Css("#library-table tr[data-id]"))
            .await?
            .len()
            >= 3)
    })
    .await?;
    screenshot(driver, "02-library").await;

    // The `tongwen` command adds a document to the same library while the app is open; the list shows it
    // when the Library tab is opened again.
    let rows = driver
        .find_all(By::Css("#library-table tr[data-id]"))
        .await?
        .len();
    driver.find(By::Id("tab-settings")).await?.click().await?;
    let library_path = driver
        .find(By::Id("settings-library-path"))
        .await?
        .prop("value")
        .await?
        .unwrap_or_default();
    assert!(
        !library_path.is_empty(),
        "the settings show the library path"
    );
    let extra = home.join("added-by-the-command.txt");
    std::fs::write(
        &extra,
        "这一段由命令行工具在应用打开时加入同一个文献库，应用再次打开文献库页面时应当看到它。\n",
    )
    .expect("write the extra document");
    let cli = cli_binary();
    assert!(cli.is_file(), "build the command first: {}", cli.display());
    succeeds(
        Command::new(&cli)
            .arg("--library")
            .arg(&library_path)
            .args(["library", "add"])
            .arg(&extra),
    );
    driver.find(By::Id("tab-library")).await?.click().await?;
    wait_count(
        driver,
        "the document the command added",
        "#library-table tr[data-id]",
        rows + 1,
    )
    .await?;

    // Check a submission.
    driver.find(By::Id("tab-check")).await?.click().await?;
    stub_dialog(
        driver,
        serde_json::json!([submission.display().to_string()]),
    )
    .await?;
    click(driver, "check-pick").await?;
    wait_for("a flagged paragraph", || async {
        Ok(!driver
            .find_all(By::Css("#paragraphs .para.flagged"))
            .await?
            .is_empty())
    })
    .await?;
    let ratio = text_of(driver, "#report-ratio").await?;
    assert!(ratio.ends_with('%') && ratio != "0.0%", "ratio {ratio}");
    let flagged_before = driver
        .find_all(By::Css("#paragraphs .para.flagged"))
        .await?
        .len();
    screenshot(driver, "03-report").await;

    // Move the threshold to the top: fewer (or no) paragraphs stay flagged, without a new check.
    let slider = driver.find(By::Id("threshold")).await?;
    set_slider(driver, &slider, "1").await?;
    wait_for("fewer flags at threshold 1", || async {
        Ok(driver
            .find_all(By::Css("#paragraphs .para.flagged"))
            .await?
            .len()
            < flagged_before)
    })
    .await?;
    let shown = text_of(driver, "#threshold-value").await?;
    assert!(
        shown.contains("100") || shown.contains("1.00"),
        "threshold shows {shown}"
    );
    set_slider(driver, &slider, "0.3").await?;
    wait_count(
        driver,
        "flags back at 0.3",
        "#paragraphs .para.flagged",
        flagged_before,
    )
    .await?;

    // Open the side-by-side view of the first flagged paragraph; copied text is highlighted in both.
    open_first_flagged(driver).await?;
    assert!(!driver
        .find_all(By::Css("#compare-submission mark"))
        .await?
        .is_empty());
    assert!(!driver
        .find_all(By::Css("#compare-source mark"))
        .await?
        .is_empty());
    screenshot(driver, "04-compare").await;
    if flagged_before > 1 {
        let before = text_of(driver, "#compare-submission").await?;
        driver.find(By::Id("compare-next")).await?.click().await?;
        wait_for("the next flagged paragraph", || async {
            Ok(text_of(driver, "#compare-submission").await? != before)
        })
        .await?;
    }

    driver.find(By::Id("compare-close")).await?.click().await?;
    wait_for("the compare panel to close", || async {
        Ok(!driver.find(By::Id("compare")).await?.is_displayed().await?)
    })
    .await?;

    // Export the report through the save dialog.
    let out = home.join("report.html");
    stub_dialog(driver, serde_json::json!(out.display().to_string())).await?;
    click(driver, "export-html").await?;
    wait_for("the exported report", || async { Ok(out.is_file()) }).await?;
    let html = std::fs::read_to_string(&out).expect("report");
    assert!(html.contains("<mark>") && html.contains("similarity report"));

    // A hostile submission: its markup is shown as text and nothing in it runs.
    let hostile = home.join("hostile.txt");
    std::fs::write(
        &hostile,
        "<img src=x onerror=alert(1)> <script>window.__xss = 1</script> \
         Tongwen shows this paragraph as plain text.\n\n\
         <b onmouseover=\"window.__xss = 2\">bold?</b> A second paragraph of ordinary words.\n",
    )
    .expect("write hostile submission");
    stub_dialog(driver, serde_json::json!([hostile.display().to_string()])).await?;
    click(driver, "check-pick").await?;
    wait_for("the hostile submission's paragraphs", || async {
        Ok(text_of(driver, "#paragraphs")
            .await?
            .contains("<img src=x onerror=alert(1)>"))
    })
    .await?;
    let shown = text_of(driver, "#paragraphs").await?;
    assert!(
        shown.contains("<script>window.__xss = 1</script>"),
        "{shown}"
    );
    assert!(driver
        .find_all(By::Css(
            "#paragraphs img, #paragraphs script, #paragraphs b"
        ))
        .await?
        .is_empty());
    let ran = driver
        .execute(
            "return window.__xss === undefined ? null : window.__xss;",
            vec![],
        )
        .await?;
    assert!(ran.json().is_null(), "injected code ran: {:?}", ran.json());

    chinese_interface(driver, home).await?;
    class_comparison(driver, home).await?;
    exclusions_and_details(driver, home).await?;
    translation(driver, home).await
}

/// Open the side-by-side view of the first flagged paragraph.
async fn open_first_flagged(driver: &WebDriver) -> WebDriverResult<()> {
    driver
        .find(By::Css("#paragraphs .para.flagged"))
        .await?
        .click()
        .await?;
    wait_for("the compare panel", || async {
        driver.find(By::Id("compare")).await?.is_displayed().await
    })
    .await
}

/// Add one file to the library through the Library tab's dialog and wait for its row.
async fn add_to_library(driver: &WebDriver, file: &Path) -> WebDriverResult<()> {
    driver.find(By::Id("tab-library")).await?.click().await?;
    let rows = driver
        .find_all(By::Css("#library-table tr[data-id]"))
        .await?
        .len();
    stub_dialog(driver, serde_json::json!([file.display().to_string()])).await?;
    click(driver, "library-add-files").await?;
    wait_for("the added file", || async {
        Ok(driver
            .find_all(By::Css("#library-table tr[data-id]"))
            .await?
            .len()
            == rows + 1)
    })
    .await
}

/// A copy by translation: an English library document and a Chinese essay translating it. The report
/// says how much of the ratio is translation; the Compare view names the match a translation and marks
/// each aligned sentence pair in one colour on both sides.
async fn translation(driver: &WebDriver, home: &Path) -> WebDriverResult<()> {
    let source = home.join("maintainer-guide.txt");
    std::fs::write(
        &source,
        "If you want to be a good maintainer, you should periodically check the bug tracking system \
         for your packages. The bug tracking system contains all the open bugs against your packages. \
         You can check them by browsing this page.\n",
    )
    .expect("write the source");
    add_to_library(driver, &source).await?;
    let essay = home.join("译文.txt");
    std::fs::write(
        &essay,
        "如果你想成为一名好的维护者，你应该定期检查错误跟踪系统中你的软件包的错误报告。\
         错误跟踪系统包含了针对你的软件包的所有未解决的错误。你可以通过浏览这个页面来查看它们。\n",
    )
    .expect("write the essay");
    driver.find(By::Id("tab-check")).await?.click().await?;
    stub_dialog(driver, serde_json::json!([essay.display().to_string()])).await?;
    click(driver, "check-pick").await?;
    wait_for("the translation's report", || async {
        Ok(text_of(driver, "#report-file").await?.contains("译文")
            && !driver
                .find_all(By::Css("#paragraphs .para.flagged"))
                .await?
                .is_empty())
    })
    .await?;
    let translated = text_of(driver, "#report-translated").await?;
    assert!(translated.contains('%'), "{translated}");
    open_first_flagged(driver).await?;
    assert!(!driver
        .find_all(By::Css("#compare-source .match.active .match-language"))
        .await?
        .is_empty());
    for side in ["submission", "source"] {
        let marks = driver
            .find_all(By::Css(format!("#compare-{side} mark.pair-c0")))
            .await?;
        assert!(!marks.is_empty(), "{side}: no first pair colour");
    }
    let first = text_of(driver, "#compare-source .match.active mark.pair-c0").await?;
    assert!(
        first.starts_with("If you want to be a good maintainer"),
        "{first}"
    );
    screenshot(driver, "09-translation").await;
    driver.find(By::Id("compare-close")).await?.click().await?;
    Ok(())
}

/// A number shown as a percentage ("45.2%").
fn percent(text: &str) -> f64 {
    text.trim()
        .trim_end_matches('%')
        .trim()
        .parse()
        .unwrap_or_else(|_| panic!("not a percentage: {text:?}"))
}

/// A cited quotation and a plain copy (the interface is in Chinese by now): leaving quotations out
/// lowers the similarity without a new check while the total stays; the PDF report is saved; a library
/// document's author is edited in its details dialog.
async fn exclusions_and_details(driver: &WebDriver, home: &Path) -> WebDriverResult<()> {
    const QUOTED: &str = "维护者应当定期检查错误跟踪系统中的报告并及时回复每一位用户的问题";
    const COPIED: &str = "软件包的上游作者发布新版本时通常也会同步更新相关的说明文档和变更记录";
    let source = home.join("维护手册.txt");
    std::fs::write(&source, format!("{QUOTED}。{COPIED}。\n")).expect("write the source");
    add_to_library(driver, &source).await?;

    let essay = home.join("引用与复制.txt");
    std::fs::write(
        &essay,
        format!(
            "正如张三（2019）所说：“{QUOTED}”，我们小组也认同这一点。\n\n{COPIED}，这是我们讨论后的总结。\n"
        ),
    )
    .expect("write the essay");
    driver.find(By::Id("tab-check")).await?.click().await?;
    stub_dialog(driver, serde_json::json!([essay.display().to_string()])).await?;
    click(driver, "check-pick").await?;
    wait_for("the essay's report", || async {
        Ok(text_of(driver, "#report-file")
            .await?
            .contains("引用与复制")
            && percent(&text_of(driver, "#similarity-ratio").await?) > 0.0)
    })
    .await?;
    let total = text_of(driver, "#report-ratio").await?;
    let similarity = percent(&text_of(driver, "#similarity-ratio").await?);
    assert_eq!(percent(&total), similarity, "nothing left out yet");
    // The quotation is marked as quoted (green), the copy as copied.
    assert!(!driver
        .find_all(By::Css("#paragraphs mark.kind-quoted"))
        .await?
        .is_empty());
    click(driver, "exclude-quotes").await?;
    wait_for("the similarity without the quotation", || async {
        Ok(percent(&text_of(driver, "#similarity-ratio").await?) < similarity - 1.0)
    })
    .await?;
    assert_eq!(
        text_of(driver, "#report-ratio").await?,
        total,
        "the total stays"
    );
    let without = percent(&text_of(driver, "#similarity-ratio").await?);
    assert!(without > 0.0, "the plain copy still counts");
    screenshot(driver, "07-exclusions").await;

    // Why the quotation is excused: its citation is marked. The teacher disagrees with one click: the
    // quotation counts as copied and the figure follows without a new check; a second click restores it.
    let cited = text_of(driver, "#paragraphs span.citation").await?;
    assert!(cited.contains("2019"), "the citation is marked: {cited}");
    click_css(driver, "#paragraphs button[data-action='dispute']").await?;
    wait_for("the disputed quotation counted", || async {
        Ok(percent(&text_of(driver, "#similarity-ratio").await?) == percent(&total))
    })
    .await?;
    assert!(!driver
        .find_all(By::Css("#paragraphs mark.disputed"))
        .await?
        .is_empty());
    click_css(driver, "#paragraphs button[data-action='dispute']").await?;
    wait_for("the citation restored", || async {
        Ok(percent(&text_of(driver, "#similarity-ratio").await?) == without)
    })
    .await?;

    // The PDF report, with the exclusion chosen.
    let pdf = home.join("报告.pdf");
    stub_dialog(driver, serde_json::json!(pdf.display().to_string())).await?;
    click(driver, "export-pdf").await?;
    wait_for("the PDF report", || async { Ok(pdf.is_file()) }).await?;
    let bytes = std::fs::read(&pdf).expect("pdf");
    assert!(bytes.starts_with(b"%PDF-"));

    click(driver, "exclude-quotes").await?;
    wait_for("the similarity back", || async {
        Ok(percent(&text_of(driver, "#similarity-ratio").await?) == similarity)
    })
    .await?;

    // Edit the source's author in its details dialog.
    driver.find(By::Id("tab-library")).await?.click().await?;
    driver
        .execute(
            "const f = document.getElementById('library-filter'); f.value = '维护手册'; \
             f.dispatchEvent(new Event('input', {bubbles: true}));",
            vec![],
        )
        .await?;
    wait_count(
        driver,
        "the source alone in the list",
        "#library-table tr[data-id]",
        1,
    )
    .await?;
    click_css(driver, "#library-table tr[data-id] .doc-edit").await?;
    let author = driver.find(By::Id("doc-edit-author")).await?;
    author.send_keys("王明").await?;
    click(driver, "doc-edit-save").await?;
    wait_for("the author in the list", || async {
        Ok(text_of(driver, "#library-table tr[data-id]")
            .await?
            .contains("王明"))
    })
    .await?;

    // Two near copies in the library are found as duplicates and the second is removed.
    let copies = home.join("副本");
    std::fs::create_dir_all(&copies).expect("copies folder");
    let body = format!("{QUOTED}。\n\n{COPIED}。\n\n这一段是两份副本共有的第三段文字，用来让两篇文档几乎完全相同。\n");
    std::fs::write(copies.join("副本甲.txt"), &body).expect("copy one");
    std::fs::write(copies.join("副本乙.txt"), format!("{body}\n多出的一句。\n")).expect("copy two");
    driver
        .execute(
            "const f = document.getElementById('library-filter'); f.value = ''; \
             f.dispatchEvent(new Event('input', {bubbles: true}));",
            vec![],
        )
        .await?;
    let before = driver
        .find_all(By::Css("#library-table tr[data-id]"))
        .await?
        .len();
    stub_dialog(driver, serde_json::json!([copies.display().to_string()])).await?;
    click(driver, "library-add-folder").await?;
    wait_count(
        driver,
        "the two copies",
        "#library-table tr[data-id]",
        before + 2,
    )
    .await?;
    // First by a seed method (Jaccard of the word sets), chosen beside the button.
    let choose = |method: &'static str| {
        format!(
            "const s = document.getElementById('duplicates-method'); s.value = '{method}'; \
             s.dispatchEvent(new Event('change', {{bubbles: true}}));"
        )
    };
    driver.execute(&choose("jaccard"), vec![]).await?;
    click(driver, "library-duplicates").await?;
    // Whether a shown group holds both copies.
    let copies_grouped = || async {
        for g in driver
            .find_all(By::Css("#duplicates-groups .duplicate-group"))
            .await?
        {
            let text = g.text().await?;
            if text.contains("副本甲") && text.contains("副本乙") {
                return Ok(true);
            }
        }
        WebDriverResult::<bool>::Ok(false)
    };
    wait_for("the two copies grouped by Jaccard", copies_grouped).await?;
    click(driver, "duplicates-dismiss").await?;
    driver.execute(&choose("verified"), vec![]).await?;
    click(driver, "library-duplicates").await?;
    wait_for("the group of the two copies", copies_grouped).await?;
    // Remove the copy the group offers to remove (not the kept one).
    let buttons = driver
        .find_all(By::Css("#duplicates-groups .duplicate-group"))
        .await?;
    let mut removed = false;
    for g in buttons {
        let text = g.text().await?;
        if text.contains("副本甲") && text.contains("副本乙") {
            let button = g.find(By::Css(".duplicate-remove")).await?;
            driver
                .execute(
                    "arguments[0].scrollIntoView({block: 'center'});",
                    vec![button.to_json()?],
                )
                .await?;
            button.click().await?;
            removed = true;
            break;
        }
    }
    assert!(removed, "a remove button in the copies' group");
    click(driver, "confirm-ok").await?;
    wait_count(
        driver,
        "one copy removed from the library",
        "#library-table tr[data-id]",
        before + 1,
    )
    .await?;
    screenshot(driver, "08-duplicates").await;
    Ok(())
}

/// Settings → language 中文, saved; waits until the interface is in Chinese.
async fn switch_to_chinese(driver: &WebDriver) -> WebDriverResult<()> {
    driver.find(By::Id("tab-settings")).await?.click().await?;
    driver
        .execute(
            "const s = document.getElementById('settings-language'); s.value = 'zh'; \
             s.dispatchEvent(new Event('change', {bubbles: true}));",
            vec![],
        )
        .await?;
    click(driver, "settings-save").await?;
    wait_for("the interface in Chinese", || async {
        Ok(driver
            .execute("return document.documentElement.lang;", vec![])
            .await?
            .json()
            .as_str()
            .is_some_and(|l| l.starts_with("zh")))
    })
    .await?;
    Ok(())
}

/// With the interface in Chinese, an engine error is said in Chinese (from its kind, not Rust's English
/// message) and the exported report is in Chinese.
async fn chinese_interface(driver: &WebDriver, home: &Path) -> WebDriverResult<()> {
    switch_to_chinese(driver).await?;

    let empty = home.join("空白.txt");
    std::fs::write(&empty, "").expect("write an empty submission");
    driver.find(By::Id("tab-check")).await?.click().await?;
    stub_dialog(driver, serde_json::json!([empty.display().to_string()])).await?;
    click(driver, "check-pick").await?;
    wait_for("the reason in Chinese", || async {
        Ok(text_of(driver, "#report-doc-error-message")
            .await?
            .contains("文件是空的"))
    })
    .await?;
    let said = text_of(driver, "#report-doc-error-message").await?;
    assert!(!said.contains("the file is empty"), "{said}");

    let out = home.join("报告.html");
    stub_dialog(driver, serde_json::json!(out.display().to_string())).await?;
    click(driver, "export-html").await?;
    wait_for("the exported Chinese report", || async {
        Ok(out.is_file())
    })
    .await?;
    let html = std::fs::read_to_string(&out).expect("report");
    assert!(
        html.contains("未检测：") && html.contains("文件是空的"),
        "{html}"
    );
    Ok(())
}

/// The Class tab (the interface is in Chinese by now): a folder of three submissions, two of which share
/// two paragraphs, compared with each other; one pair, its passages marked side by side, re-grouped by the
/// threshold, and the class report exported.
async fn class_comparison(driver: &WebDriver, home: &Path) -> WebDriverResult<()> {
    const SHARED: [&str; 2] = [
        "秋天的校园里，银杏叶一片片落在通往图书馆的小路上，同学们踩着金黄的叶子去上早读课。",
        "我最喜欢的地方是实验楼后面的小池塘，那里有几尾红鲤鱼，每到傍晚总有人蹲在岸边喂它们。",
    ];
    let folder = home.join("班级作业");
    std::fs::create_dir_all(&folder).expect("class folder");
    let submissions = [
        (
            "张三.txt",
            [
                "开学第一周，我参加了学校组织的新生见面会，认识了来自不同省份的许多新朋友。",
                SHARED[0],
                "周末我通常会去市里借两本小说，一边喝茶一边慢慢读完，再写一篇简短的读后感。",
                SHARED[1],
            ],
        ),
        (
            "李四.txt",
            [
                "我的家乡在海边，小时候常和爷爷一起出海捕鱼，听他讲渔村里流传的老故事。",
                SHARED[0],
                SHARED[1],
                "上大学以后，我终于学会了自己安排时间，也体会到独立生活的辛苦与乐趣。",
            ],
        ),
        (
            "王五.txt",
            [
                "高原上的冬天来得很早，十月底山顶就已经积了雪，牧民们开始把牛羊赶回冬季牧场。",
                "父亲是一名乡村教师，三十年来一直在同一所小学教数学，孩子们都叫他老王。",
                "这个寒假我打算学习编程，先从简单的网页做起，争取在春节前完成一个个人主页。",
                "奶奶种的柿子树今年结了满满一树果子，我们摘下来晒成柿饼，分给左邻右舍。",
            ],
        ),
    ];
    for (name, paragraphs) in &submissions {
        std::fs::write(folder.join(name), paragraphs.join("\n\n") + "\n")
            .expect("write a submission");
    }

    driver.find(By::Id("tab-class")).await?.click().await?;
    stub_dialog(driver, serde_json::json!([folder.display().to_string()])).await?;
    click(driver, "class-choose").await?;
    wait_for("the class's pair list", || async {
        Ok(!driver
            .find_all(By::Css("#class-pairs tbody tr"))
            .await?
            .is_empty()
            && !driver
                .find(By::Id("progress"))
                .await?
                .is_displayed()
                .await?)
    })
    .await?;
    let rows = driver.find_all(By::Css("#class-pairs tbody tr")).await?;
    assert_eq!(rows.len(), 1, "exactly one pair shares text");
    // The names as written in the list (textContent: a long name may be cut off on screen).
    let name_in = |css: &'static str| async move {
        let cell = driver.find(By::Css(css)).await?;
        Ok::<String, WebDriverError>(cell.prop("textContent").await?.unwrap_or_default())
    };
    let a = name_in("#class-pairs tbody tr .pair-open").await?;
    let b = name_in("#class-pairs tbody tr .pair-name").await?;
    let mut names = [a.trim().to_string(), b.trim().to_string()];
    names.sort();
    assert_eq!(names, ["张三.txt", "李四.txt"], "the pair");
    assert_eq!(
        driver
            .find_all(By::Css("#class-matrix td.pair"))
            .await?
            .len(),
        2,
        "one pair, two cells of the matrix"
    );
    assert_eq!(
        driver.find_all(By::Css("#class-groups > li")).await?.len(),
        1,
        "one group at the settings' threshold"
    );
    screenshot(driver, "05-class").await;

    // Side by side: the shared paragraphs, their text marked on both sides.
    click_css(driver, "#class-pairs tbody tr .pair-open").await?;
    wait_for("the pair side by side", || async {
        driver
            .find(By::Id("class-compare"))
            .await?
            .is_displayed()
            .await
    })
    .await?;
    // The middle of each shared paragraph is marked on both sides; the paragraphs not shared are not.
    for side in ["a", "b"] {
        let mut marked = Vec::new();
        for mark in driver
            .find_all(By::Css(format!("#class-compare .class-side-{side} mark")))
            .await?
        {
            marked.push(mark.text().await?);
        }
        let marked = marked.join("|");
        for middle in [
            "银杏叶一片片落在通往图书馆",
            "实验楼后面的小池塘，那里有几尾红鲤鱼",
        ] {
            assert!(marked.contains(middle), "side {side}: {middle} in {marked}");
        }
        assert!(
            !marked.contains("见面会") && !marked.contains("渔村"),
            "side {side}: {marked}"
        );
    }
    screenshot(driver, "06-class-pair").await;
    click(driver, "class-compare-back").await?;
    wait_for("the pair list again", || async {
        driver
            .find(By::Id("class-pairs"))
            .await?
            .is_displayed()
            .await
    })
    .await?;

    // The threshold re-filters without comparing again: at 100% the pair, which shares a whole
    // paragraph, stays listed and grouped, but no longer highlighted (its ratios are below 100%).
    let slider = driver.find(By::Id("class-threshold")).await?;
    set_slider(driver, &slider, "1").await?;
    wait_count(
        driver,
        "the pair not highlighted at threshold 1",
        "#class-pairs tbody tr.strong",
        0,
    )
    .await?;
    assert_eq!(
        driver
            .find_all(By::Css("#class-pairs tbody tr"))
            .await?
            .len(),
        1
    );
    assert_eq!(
        driver.find_all(By::Css("#class-groups > li")).await?.len(),
        1,
        "a listed pair is a group whatever its ratios"
    );
    set_slider(driver, &slider, "0.3").await?;
    wait_count(
        driver,
        "the pair highlighted again at 0.3",
        "#class-pairs tbody tr.strong",
        1,
    )
    .await?;

    // The class report, exported through the save dialog (in Chinese, the interface's language).
    let out = home.join("班级互查.html");
    stub_dialog(driver, serde_json::json!(out.display().to_string())).await?;
    click(driver, "class-export").await?;
    wait_for("the exported class report", || async { Ok(out.is_file()) }).await?;
    let html = std::fs::read_to_string(&out).expect("class report");
    assert!(
        html.contains("张三.txt") && html.contains("李四.txt"),
        "both files named in {html}"
    );
    assert!(html.contains("班级互查"), "in Chinese");
    Ok(())
}
