//! Command-level tests on Tauri's mock runtime: each command called through the IPC layer as the web view
//! calls it, with its JSON arguments, answers and `{code, message}` errors.

use serde_json::{json, Value};
use tauri::ipc::{CallbackFn, InvokeBody};
use tauri::test::{
    get_ipc_response, mock_builder, mock_context, noop_assets, MockRuntime, INVOKE_KEY,
};
use tauri::webview::InvokeRequest;
use tauri::WebviewWindow;

use crate::configure;
use crate::state::AppState;

const ZH: &str = "如果你想成为一名好的维护者，你应该定期检查 Debian 错误跟踪系统中你的软件包的错误报告。错误跟踪系统包含了针对你的软件包的所有未解决的错误。";
const EN: &str = "If you want to be a good maintainer, you should periodically check the Debian bug tracking system for your packages. The BTS contains all the open bugs against your packages.";
const EVIL: &str = "提交的内容 <img src=x onerror=alert(1)> 与 <script>alert(1)</script> 只能作为文本出现，报告里绝不能运行任何脚本或者加载任何图片。";

struct TestApp {
    _app: tauri::App<MockRuntime>,
    webview: WebviewWindow<MockRuntime>,
    dir: tempfile::TempDir,
}

fn app() -> TestApp {
    app_in(tempfile::tempdir().unwrap())
}

/// The app with its config and data folders in `dir` (which may already hold a library).
fn app_in(dir: tempfile::TempDir) -> TestApp {
    let state = AppState::load(&dir.path().join("config"), &dir.path().join("data"), None).unwrap();
    app_with(state, dir)
}

/// The app over `state`, its folders in `dir`.
fn app_with(state: AppState, dir: tempfile::TempDir) -> TestApp {
    let app = configure(mock_builder(), Some(state))
        .build(mock_context(noop_assets()))
        .unwrap();
    let webview = tauri::WebviewWindowBuilder::new(&app, "main", Default::default())
        .build()
        .unwrap();
    TestApp {
        _app: app,
        webview,
        dir,
    }
}

impl TestApp {
    fn call(&self, cmd: &str, args: Value) -> Result<Value, Value> {
        get_ipc_response(
            &self.webview,
            InvokeRequest {
                cmd: cmd.into(),
                callback: CallbackFn(0),
                error: CallbackFn(1),
                url: "tauri://localhost".parse().unwrap(),
                body: InvokeBody::Json(args),
                headers: Default::default(),
                invoke_key: INVOKE_KEY.to_string(),
            },
        )
        .map(|b| b.deserialize::<Value>().unwrap())
    }

    fn file(&self, name: &str, bytes: impl AsRef<[u8]>) -> String {
        let p = self.dir.path().join(name);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(&p, bytes).unwrap();
        p.display().to_string()
    }
}

fn docx(paragraphs: &[&str]) -> Vec<u8> {
    use docx_rs::{Docx, Paragraph, Run};
    let mut doc = Docx::new();
    for p in paragraphs {
        doc = doc.add_paragraph(Paragraph::new().add_run(Run::new().add_text(*p)));
    }
    let mut buf = std::io::Cursor::new(Vec::new());
    doc.build().pack(&mut buf).unwrap();
    buf.into_inner()
}

const CHANNEL: &str = "__CHANNEL__:7";

#[test]
fn add_list_check_refilter_export_remove() {
    let t = app();
    assert_eq!(t.call("library_list", json!({})).unwrap(), json!([]));
    let folder = t.dir.path().join("lib");
    t.file("lib/zh.txt", format!("{ZH}\n\n{EVIL}\n"));
    t.file("lib/en.docx", docx(&[EN]));
    t.file("lib/broken.docx", b"PK\x03\x04 not a zip");
    let summary = t
        .call(
            "library_add",
            json!({"paths": [folder.display().to_string()], "onProgress": CHANNEL}),
        )
        .unwrap();
    assert_eq!(summary["added"].as_array().unwrap().len(), 2, "{summary}");
    assert_eq!(summary["cancelled"], false);
    let failed = summary["failed"].as_array().unwrap();
    assert_eq!(failed.len(), 1);
    assert!(failed[0]["path"].as_str().unwrap().ends_with("broken.docx"));
    assert_eq!(failed[0]["kind"], "corrupt_docx");
    let message = failed[0]["message"].as_str().unwrap();
    assert!(
        message.contains("broken.docx") && message.contains("Word"),
        "{message}"
    );

    let list = t.call("library_list", json!({})).unwrap();
    let titles: Vec<&str> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["title"].as_str().unwrap())
        .collect();
    assert_eq!(titles, ["en", "zh"]);

    // Half of the paragraph is copied: flagged at 0.3, not at 0.9 — re-filtered without re-checking.
    let sub = t.file("sub.txt", format!("{EN} The village bakery opens at six and the queue reaches the corner of the square by seven every morning.\n\n{EVIL}\n"));
    let report = t
        .call("check", json!({"paths": [sub], "onProgress": CHANNEL}))
        .unwrap();
    let paras = &report["documents"][0]["paragraphs"];
    assert_eq!(paras[0]["flagged"], true, "{report}");
    assert_eq!(paras[1]["flagged"], true);
    assert_eq!(
        paras[1]["text"], EVIL,
        "text is passed through untouched, for the UI to insert as text"
    );
    let span = &paras[0]["matches"][0]["spans"][0];
    assert_eq!(
        span["submission_utf16"], span["submission"],
        "ASCII: UTF-16 offsets equal char offsets"
    );
    let strict = t.call("report", json!({"threshold": 0.9})).unwrap();
    assert_eq!(strict["documents"][0]["paragraphs"][0]["flagged"], false);
    assert_eq!(strict["documents"][0]["paragraphs"][1]["flagged"], true);
    assert_eq!(strict["threshold"], 0.9);

    let out = t.dir.path().join("report.html");
    t.call(
        "export_html",
        json!({"path": out.display().to_string(), "threshold": 0.3}),
    )
    .unwrap();
    let html = std::fs::read_to_string(&out).unwrap();
    assert!(html.contains("&lt;img src=x onerror=alert(1)&gt;"));
    assert!(!html.contains("<script") && !html.contains("<img"));
    assert!(html.contains("similarity report") && !html.contains("检测报告"));
    // The page follows the UI language.
    t.call(
        "export_html",
        json!({"path": out.display().to_string(), "threshold": 0.3, "lang": "zh"}),
    )
    .unwrap();
    let html = std::fs::read_to_string(&out).unwrap();
    assert!(
        html.contains("<html lang=\"zh-CN\">") && html.contains("复制比"),
        "{html}"
    );

    let ids: Vec<i64> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["id"].as_i64().unwrap())
        .collect();
    let removed = t.call("library_remove", json!({"ids": [ids[0]]})).unwrap();
    assert_eq!(removed[0]["title"], "en");
    assert_eq!(
        t.call("library_list", json!({}))
            .unwrap()
            .as_array()
            .unwrap()
            .len(),
        1
    );
}

#[test]
fn a_class_is_compared_regrouped_and_exported_without_touching_the_library() {
    let t = app();
    let other =
        "图形界面的设计需要兼顾美观与效率，良好的快捷键布局可以显著减少用户的操作步骤和等待时间。";
    let template =
        "本人郑重声明：所呈交的课程论文是本人独立完成的，文中引用他人成果之处均已注明出处。";
    t.file("class/a.txt", format!("{template}\n\n{ZH}\n\n{EVIL}\n"));
    t.file("class/b.docx", docx(&[template, other, ZH]));
    t.file("class/c.txt", format!("{template}\n\n{other}\n\n{EVIL}\n"));
    t.file("class/broken.docx", b"PK\x03\x04 not a zip");
    let prompt = t.file("prompt.txt", format!("{template}\n"));
    let folder = t.dir.path().join("class").display().to_string();
    let report = t
        .call(
            "class_compare",
            json!({"paths": [folder], "templates": [prompt], "onProgress": CHANNEL}),
        )
        .unwrap();
    let docs = report["documents"].as_array().unwrap();
    assert_eq!(docs.len(), 4);
    let broken = docs
        .iter()
        .find(|d| d["file"].as_str().unwrap().ends_with("broken.docx"));
    assert_eq!(broken.unwrap()["error_info"]["kind"], "corrupt_docx");
    let pairs: Vec<(String, String)> = report["pairs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let name = |k: &str| {
                p[k].as_str()
                    .unwrap()
                    .rsplit('/')
                    .next()
                    .unwrap()
                    .to_string()
            };
            (name("a"), name("b"))
        })
        .collect();
    // The template is in every file, but only copied text makes a pair.
    assert_eq!(pairs.len(), 3, "{report}");
    for pair in [("a.txt", "b.docx"), ("b.docx", "c.txt"), ("a.txt", "c.txt")] {
        assert!(pairs.contains(&(pair.0.into(), pair.1.into())), "{pairs:?}");
    }
    let span = &report["pairs"][0]["matches"][0]["spans"][0];
    assert!(span["a_utf16"].is_array() && span["b_utf16"].is_array());
    assert_eq!(report["clusters"][0]["files"].as_array().unwrap().len(), 3);
    // Re-grouped at a threshold no pair's ratio reaches, without comparing again: each pair still shares
    // a whole paragraph, so it is listed, and the listed pairs still make one group.
    let strict = t.call("class_report", json!({"threshold": 1.0})).unwrap();
    assert_eq!(strict["pairs"].as_array().unwrap().len(), 3);
    assert!(strict["pairs"]
        .as_array()
        .unwrap()
        .iter()
        .all(|p| p["a_ratio"]
            .as_f64()
            .unwrap()
            .max(p["b_ratio"].as_f64().unwrap())
            < 1.0));
    assert_eq!(strict["grouped_by"], "listed_pairs");
    assert_eq!(strict["clusters"][0]["files"].as_array().unwrap().len(), 3);
    let out = t.dir.path().join("class.html");
    t.call(
        "class_export_html",
        json!({"path": out.display().to_string(), "lang": "zh"}),
    )
    .unwrap();
    let html = std::fs::read_to_string(&out).unwrap();
    assert!(html.contains("班级互查") && html.contains("b.docx"));
    assert!(
        html.contains("&lt;img src=x onerror=alert(1)&gt;"),
        "the shared passage is shown"
    );
    assert!(!html.contains("<img") && !html.contains("<script"));
    assert_eq!(t.call("library_list", json!({})).unwrap(), json!([]));
    assert!(!t.dir.path().join("data").join("library.sqlite").exists());
}

#[test]
fn quotations_can_be_left_out_of_the_ratio_without_checking_again() {
    let t = app();
    let folder = t.dir.path().join("lib");
    t.file("lib/zh.txt", format!("{ZH}\n"));
    t.call(
        "library_add",
        json!({"paths": [folder.display().to_string()], "onProgress": CHANNEL}),
    )
    .unwrap();
    let own = "我们小组讨论了维护工作的意义，大家都认为及时处理问题最重要。";
    let sub = t.file(
        "quoting.txt",
        format!("{own}正如《维护手册》所说：“{ZH}”\n"),
    );
    let report = t
        .call("check", json!({"paths": [sub], "onProgress": CHANNEL}))
        .unwrap();
    let doc = &report["documents"][0];
    let span = &doc["paragraphs"][0]["matches"][0]["spans"][0];
    assert_eq!(span["kind"], "quoted", "{report}");
    let total = doc["total_ratio"].as_f64().unwrap();
    assert!(total > 0.5 && doc["similarity_ratio"].as_f64() == Some(total));
    let without = t
        .call("report", json!({"threshold": 0.3, "exclude": ["quotes"]}))
        .unwrap();
    let d = &without["documents"][0];
    assert_eq!(d["similarity_ratio"], 0.0);
    assert_eq!(d["total_ratio"].as_f64(), Some(total));
    assert_eq!(without["exclude"], json!(["quoted"]));
    let err = t
        .call(
            "report",
            json!({"threshold": 0.3, "exclude": ["footnotes"]}),
        )
        .unwrap_err();
    assert_eq!(err["kind"], "invalid_setting");
    // Why it is excused: its quotation and the citation (the title), shown to the reader.
    let cited_by = &span["cited_by"];
    let text: Vec<char> = doc["paragraphs"][0]["text"]
        .as_str()
        .unwrap()
        .chars()
        .collect();
    let at = |r: &Value| r.as_u64().unwrap() as usize;
    let citation: String = text[at(&cited_by["citation"][0])..at(&cited_by["citation"][1])]
        .iter()
        .collect();
    assert_eq!(citation, "《维护手册》");
    assert_eq!(cited_by["disputed"], false);
    // The reader disagrees: one call, no new check; the passage counts as copied, figures follow.
    let start = cited_by["quotation"][0].clone();
    let disputed = t
        .call(
            "dispute_quotation",
            json!({"document": 0, "paragraph": 0, "start": start, "threshold": 0.3, "exclude": ["quotes"]}),
        )
        .unwrap();
    let d = &disputed["documents"][0];
    let span = &d["paragraphs"][0]["matches"][0]["spans"][0];
    assert_eq!(span["kind"], "copied");
    assert_eq!(span["in_quotes"], true);
    assert_eq!(span["cited_by"]["disputed"], true);
    assert_eq!(d["similarity_ratio"].as_f64(), Some(total));
    // Again: taken back.
    let back = t
        .call(
            "dispute_quotation",
            json!({"document": 0, "paragraph": 0, "start": start, "threshold": 0.3, "exclude": ["quotes"]}),
        )
        .unwrap();
    assert_eq!(back["documents"][0]["similarity_ratio"], 0.0);
    let err = t
        .call(
            "dispute_quotation",
            json!({"document": 3, "paragraph": 0, "start": 0, "threshold": 0.3}),
        )
        .unwrap_err();
    assert_eq!(err["kind"], "invalid_setting");
}

#[test]
fn the_library_finds_its_near_duplicates() {
    let t = app();
    let folder = t.dir.path().join("lib");
    t.file("lib/original.txt", format!("{ZH}\n\n{EN}\n"));
    t.file("lib/copy.txt", format!("{ZH}\n\n{EN}\n\n多加了一句话。\n"));
    t.file(
        "lib/other.txt",
        "完全不同的一篇文章，讲的是海边小镇的渔民生活和他们的节日习俗。\n",
    );
    t.call(
        "library_add",
        json!({"paths": [folder.display().to_string()], "onProgress": CHANNEL}),
    )
    .unwrap();
    let report = t
        .call("library_duplicates", json!({"onProgress": CHANNEL}))
        .unwrap();
    assert_eq!(report["level"], "document");
    let groups = report["groups"].as_array().unwrap();
    assert_eq!(groups.len(), 1, "{report}");
    let mut titles: Vec<&str> = groups[0]["members"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["title"].as_str().unwrap())
        .collect();
    titles.sort_unstable();
    assert_eq!(titles, ["copy", "original"]);
    // A seed method finds the same pair by its own prints (containment: every word of the shorter).
    let report = t
        .call(
            "library_duplicates",
            json!({"method": "containment", "onProgress": CHANNEL}),
        )
        .unwrap();
    assert_eq!(report["method"], "containment");
    assert_eq!(report["threshold"], 0.8);
    let groups = report["groups"].as_array().unwrap();
    assert_eq!(groups.len(), 1, "{report}");
    assert_eq!(groups[0]["members"].as_array().unwrap().len(), 2);
    for bad in [json!({"level": "sentence"}), json!({"method": "md5"})] {
        let mut args = bad.clone();
        args["onProgress"] = json!(CHANNEL);
        let err = t.call("library_duplicates", args).unwrap_err();
        assert_eq!(err["kind"], "invalid_setting", "{bad}");
    }
}

#[test]
fn documents_are_added_as_templates_edited_and_own_work_is_apart() {
    let t = app();
    let folder = t.dir.path().join("lib");
    t.file("lib/zh.txt", format!("{ZH}\n"));
    let summary = t
        .call(
            "library_add",
            json!({"paths": [folder.display().to_string()],
                   "meta": {"role": "template", "author": "王明", "year": 2021, "tags": ["2021 级"]},
                   "onProgress": CHANNEL}),
        )
        .unwrap();
    let doc = &summary["added"][0];
    assert_eq!(
        (&doc["role"], &doc["author"], &doc["year"], &doc["tags"]),
        (
            &json!("template"),
            &json!("王明"),
            &json!(2021),
            &json!(["2021 级"])
        )
    );
    let id = doc["id"].clone();
    // A template's text is shown and never counted.
    let sub = t.file("sub.txt", format!("第一章 绪论\n\n{ZH}\n"));
    let report = t
        .call("check", json!({"paths": [&sub], "onProgress": CHANNEL}))
        .unwrap();
    let d = &report["documents"][0];
    assert_eq!(d["total_ratio"], 0.0, "{report}");
    assert!(d["kinds"]["template"].as_f64().unwrap() > 0.5);
    // Edited into a source by the writer: the same text is the writer's own work.
    let edited = t
        .call(
            "library_edit",
            json!({"id": id, "meta": {"role": "source", "title": "旧作", "author": "王明", "year": null, "tags": []}}),
        )
        .unwrap();
    assert_eq!(
        (
            &edited["title"],
            &edited["role"],
            &edited["year"],
            &edited["tags"]
        ),
        (&json!("旧作"), &json!("source"), &Value::Null, &json!([]))
    );
    let report = t
        .call(
            "check",
            json!({"paths": [&sub], "author": "王明", "onProgress": CHANNEL}),
        )
        .unwrap();
    let d = &report["documents"][0];
    assert!(d["kinds"]["own"].as_f64().unwrap() > 0.5, "{report}");
    let chapters = d["chapters"].as_array().unwrap();
    assert_eq!(chapters.len(), 1, "{report}");
    assert_eq!(chapters[0]["title"], "第一章 绪论");
    assert_eq!(chapters[0]["paragraphs"], 2);
    let without = t
        .call("report", json!({"threshold": 0.3, "exclude": ["own"]}))
        .unwrap();
    assert_eq!(without["documents"][0]["similarity_ratio"], 0.0);
    // The PDF report: the same figures, in Chinese, read back from the file.
    let out = t.dir.path().join("report.pdf");
    t.call(
        "export_pdf",
        json!({"path": out.display().to_string(), "threshold": 0.3, "lang": "zh", "exclude": ["own"]}),
    )
    .unwrap();
    let read = tongwen_engine::Engine::extract(&out, &Default::default()).unwrap();
    let text: String = read.paragraphs.iter().map(|b| b.text.as_str()).collect();
    for words in [
        "总文字复制比",
        "去除本人文献复制比",
        "第一章 绪论",
        "已排除：本人已发表文献",
    ] {
        assert!(text.contains(words), "{words} in {text}");
    }
    // A blank title is refused and changes nothing.
    let err = t
        .call(
            "library_edit",
            json!({"id": id, "meta": {"role": "template", "title": " "}}),
        )
        .unwrap_err();
    assert_eq!(err["kind"], "invalid_setting");
    let list = t.call("library_list", json!({})).unwrap();
    assert_eq!(list[0]["role"], "source");
    let err = t
        .call(
            "library_edit",
            json!({"id": 999, "meta": {"role": "source"}}),
        )
        .unwrap_err();
    assert!(err["message"].as_str().unwrap().contains("999"), "{err}");
}

#[test]
fn errors_cross_as_code_and_message() {
    let t = app();
    let e = t.call("report", json!({"threshold": 0.5})).unwrap_err();
    assert_eq!(e["code"], "not_found");
    assert!(e["message"].as_str().unwrap().contains("no check"));
    let e = t.call("library_remove", json!({"ids": [42]})).unwrap_err();
    assert_eq!(
        e,
        json!({"code": "not_found", "kind": "no_such_document",
               "message": "no document with id 42 in the library", "params": {"id": 42}})
    );
    // Checking before any library exists says so, naming the library.
    let missing = t.dir.path().join("nope.txt").display().to_string();
    let e = t
        .call("check", json!({"paths": [&missing], "onProgress": CHANNEL}))
        .unwrap_err();
    assert_eq!(
        (&e["code"], &e["kind"]),
        (&json!("library"), &json!("library_missing"))
    );
    assert!(
        e["path"].as_str().unwrap().ends_with("library.sqlite"),
        "{e}"
    );
    // With a library, a file that cannot be read is in the report with its kind, not a dead end.
    t.file("lib/en.txt", format!("{EN}\n"));
    let folder = t.dir.path().join("lib").display().to_string();
    t.call(
        "library_add",
        json!({"paths": [folder], "onProgress": CHANNEL}),
    )
    .unwrap();
    let report = t
        .call("check", json!({"paths": [&missing], "onProgress": CHANNEL}))
        .unwrap();
    let info = &report["documents"][0]["error_info"];
    assert_eq!(info["kind"], "file_not_found");
    assert_eq!(info["path"], json!(missing));
    let mut s = t.call("settings_get", json!({})).unwrap();
    s["threshold"] = json!(1.5);
    let e = t.call("settings_set", json!({"settings": s})).unwrap_err();
    assert_eq!(e["code"], "bad_input");
}

#[test]
fn settings_persist_and_a_new_library_location_is_opened() {
    let t = app();
    let s = t.call("settings_get", json!({})).unwrap();
    assert_eq!(s["threshold"], 0.3);
    assert_eq!(s["language"], Value::Null);
    assert_eq!(
        s["translation"], true,
        "copies by translation are searched by default"
    );
    assert!(s["library_path"]
        .as_str()
        .unwrap()
        .ends_with("library.sqlite"));
    let other = t
        .dir
        .path()
        .join("elsewhere/lib.sqlite")
        .display()
        .to_string();
    let new =
        json!({"library_path": other, "threshold": 0.5, "language": "en", "translation": false});
    assert_eq!(
        t.call("settings_set", json!({"settings": new})).unwrap(),
        new
    );
    assert!(
        std::path::Path::new(&other).is_file(),
        "library created at the new place"
    );
    let saved: Value =
        serde_json::from_slice(&std::fs::read(t.dir.path().join("config/settings.json")).unwrap())
            .unwrap();
    assert_eq!(saved, new);
}

#[test]
fn a_library_at_the_old_app_folder_moves_once_to_the_commands_place() {
    // The app and the `tongwen` command use one library: the app's old place (Tauri's app data
    // folder) is moved to the command's, once, and the move is told by the first settings_get.
    let dir = tempfile::tempdir().unwrap();
    let legacy = dir.path().join("org.tongwen.desktop");
    let data = dir.path().join("tongwen");
    let old = legacy.join("library.sqlite");
    let engine =
        tongwen_engine::Engine::new(tongwen_engine::engine::LibraryLocation::Sqlite(old.clone()));
    engine.init().unwrap();
    std::fs::write(legacy.join("library.sqlite.index"), b"index").unwrap();
    let state = AppState::load(&dir.path().join("config"), &data, Some(&legacy)).unwrap();
    let settings = crate::state::lock(&state.settings).unwrap().clone();
    let new = data.join("library.sqlite");
    assert_eq!(settings.library_path, new.display().to_string());
    assert_eq!(
        settings.library_moved_from.as_deref(),
        Some(old.display().to_string().as_str())
    );
    assert!(new.is_file() && !old.exists());
    assert!(
        data.join("library.sqlite.index").is_file()
            && !legacy.join("library.sqlite.index").exists()
    );
    let t = app_with(state, dir);
    let first = t.call("settings_get", json!({})).unwrap();
    assert_eq!(first["library_moved_from"], old.display().to_string());
    let second = t.call("settings_get", json!({})).unwrap();
    assert_eq!(second["library_moved_from"], Value::Null, "told once");
    assert_eq!(t.call("library_list", json!({})).unwrap(), json!([]));

    // A library already at the command's place is never overwritten: the old one stays where it is.
    let dir = tempfile::tempdir().unwrap();
    let legacy = dir.path().join("old");
    let data = dir.path().join("new");
    for place in [&legacy, &data] {
        tongwen_engine::Engine::new(tongwen_engine::engine::LibraryLocation::Sqlite(
            place.join("library.sqlite"),
        ))
        .init()
        .unwrap();
    }
    let state = AppState::load(&dir.path().join("config"), &data, Some(&legacy)).unwrap();
    let settings = crate::state::lock(&state.settings).unwrap().clone();
    assert_eq!(settings.library_moved_from, None);
    assert!(legacy.join("library.sqlite").is_file());
}

#[test]
fn the_sample_class_shows_its_one_pair_and_group() {
    let t = app();
    let sample = t.call("demo_class", json!({})).unwrap();
    let (essays, template) = (sample["essays"].clone(), sample["template"].clone());
    let report = t
        .call(
            "class_compare",
            json!({"paths": [essays], "templates": [template], "onProgress": CHANNEL}),
        )
        .unwrap();
    assert_eq!(report["documents"].as_array().unwrap().len(), 12);
    let name = |v: &Value| v.as_str().unwrap().rsplit('/').next().unwrap().to_string();
    let pairs: Vec<(String, String)> = report["pairs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (name(&p["a"]), name(&p["b"])))
        .collect();
    assert_eq!(
        pairs,
        [("05-liu-yang.txt".to_string(), "11-xu-nan.txt".to_string())],
        "the prompt every essay repeats is never shared text"
    );
    let groups = report["clusters"].as_array().unwrap();
    assert_eq!(groups.len(), 1);
    assert_eq!(groups[0]["files"].as_array().unwrap().len(), 2);
    // The library is not touched.
    assert_eq!(t.call("library_list", json!({})).unwrap(), json!([]));
}

#[test]
fn the_sample_gives_a_real_report() {
    let t = app();
    let report = t.call("demo", json!({"onProgress": CHANNEL})).unwrap();
    let doc = &report["documents"][0];
    assert!(doc["file"].as_str().unwrap().ends_with("student-essay.txt"));
    let ratio = doc["similarity_ratio"].as_f64().unwrap();
    assert!(ratio > 0.3 && ratio < 0.95, "{ratio}");
    let flagged: Vec<bool> = doc["paragraphs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["flagged"].as_bool().unwrap())
        .collect();
    assert_eq!(flagged, [true, false, true, true]);
    assert_eq!(
        t.call("library_list", json!({}))
            .unwrap()
            .as_array()
            .unwrap()
            .len(),
        3
    );
}

#[test]
fn a_library_change_made_outside_the_app_is_seen_by_the_next_check() {
    let t = app();
    t.file("lib/zh.txt", format!("{ZH}\n"));
    let folder = t.dir.path().join("lib").display().to_string();
    t.call(
        "library_add",
        json!({"paths": [folder], "onProgress": CHANNEL}),
    )
    .unwrap();
    let sub = t.file("sub.txt", format!("{ZH}\n\n{EN}\n"));
    let check = |t: &TestApp| {
        t.call("check", json!({"paths": [&sub], "onProgress": CHANNEL}))
            .unwrap()
    };
    let before = check(&t);
    assert_eq!(before["documents"][0]["paragraphs"][0]["flagged"], true);
    // The English paragraph translates the Chinese source: found, but only as a translation.
    let en_before = &before["documents"][0]["paragraphs"][1];
    assert_eq!(en_before["matches"][0]["cross_language"], true, "{before}");
    assert_eq!(en_before["matches"].as_array().unwrap().len(), 1);
    // With the setting off, it is not.
    let mut settings = t.call("settings_get", json!({})).unwrap();
    settings["translation"] = json!(false);
    t.call("settings_set", json!({"settings": settings.clone()}))
        .unwrap();
    let off = check(&t);
    assert_eq!(
        off["documents"][0]["paragraphs"][1]["flagged"], false,
        "{off}"
    );
    settings["translation"] = json!(true);
    t.call("settings_set", json!({"settings": settings}))
        .unwrap();

    // Another process (the `tongwen` command) adds the English source to the same library file.
    let settings = t.call("settings_get", json!({})).unwrap();
    let path = std::path::PathBuf::from(settings["library_path"].as_str().unwrap());
    let en = t.file("other/en.txt", format!("{EN}\n"));
    let fp = tongwen_engine::fingerprint::Fingerprinter::new();
    let mut outside = tongwen_engine::library::Library::open(&path).unwrap();
    let doc =
        tongwen_engine::ingest::prepare_file(std::path::Path::new(&en), &Default::default(), &fp)
            .unwrap();
    outside.add(&doc).unwrap();
    drop(outside);

    let after = check(&t);
    let paras = &after["documents"][0]["paragraphs"];
    assert_eq!(paras[0]["flagged"], true, "{after}");
    assert_eq!(paras[1]["flagged"], true, "{after}");
    // Now copied in its own language as well, which it is first.
    assert_eq!(paras[1]["matches"][0]["cross_language"], false, "{after}");
    assert_eq!(paras[1]["matches"][0]["similarity"], 1.0);
}

/// A new database on the test PostgreSQL server (`scripts/test` starts one), dropped at the end.
struct ServerDatabase {
    admin: String,
    name: String,
    url: String,
}

impl ServerDatabase {
    fn create(name: &str) -> Option<ServerDatabase> {
        let admin = tongwen_testdata::test_postgres_for(name)?;
        let name = format!("app_{name}_{}", std::process::id());
        let mut c = postgres::Client::connect(&admin, postgres::NoTls).unwrap();
        c.batch_execute(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
            .unwrap();
        c.batch_execute(&format!("CREATE DATABASE {name}")).unwrap();
        let url = format!("{}/{name}", admin.rsplit_once('/').unwrap().0);
        Some(ServerDatabase { admin, name, url })
    }
}

impl Drop for ServerDatabase {
    fn drop(&mut self) {
        if let Ok(mut c) = postgres::Client::connect(&self.admin, postgres::NoTls) {
            let _ = c.batch_execute(&format!(
                "DROP DATABASE IF EXISTS {} WITH (FORCE)",
                self.name
            ));
        }
    }
}

#[test]
fn a_shared_library_is_chosen_in_settings_and_a_reader_may_check_but_not_add() {
    let Some(db) = ServerDatabase::create("shared") else {
        return;
    };
    let t = app();
    let settings = |location: &str| json!({"settings": {"library_path": location, "threshold": 0.3, "language": null, "translation": true}});
    // No library on the server yet: said, and the settings stay as they were.
    let before = t.call("settings_get", json!({})).unwrap();
    let err = t.call("settings_set", settings(&db.url)).unwrap_err();
    assert_eq!(err["kind"], "library_missing", "{err}");
    assert_eq!(t.call("settings_get", json!({})).unwrap(), before);
    // A server that is not there.
    let err = t
        .call("settings_set", settings("postgres://x@127.0.0.1:1/none"))
        .unwrap_err();
    assert_eq!(err["kind"], "server_unreachable", "{err}");
    // The administrator creates it and adds a document; the app chooses it and checks against it.
    let admin = tongwen_engine::engine::Engine::new(
        tongwen_engine::engine::LibraryLocation::parse(&db.url),
    );
    admin.init().unwrap();
    t.call("settings_set", settings(&db.url)).unwrap();
    let src = t.file("lib/en.txt", format!("{EN}\n"));
    t.call(
        "library_add",
        json!({"paths": [src], "onProgress": CHANNEL}),
    )
    .unwrap();
    // A teacher who may only check (password in the address, as a user may give it).
    let reader = format!("{}_reader", db.name);
    postgres::Client::connect(&db.url, postgres::NoTls)
        .unwrap()
        .batch_execute(&format!(
            "CREATE ROLE {reader} LOGIN PASSWORD 'pw' IN ROLE tongwen_reader"
        ))
        .unwrap();
    let as_reader = db
        .url
        .replacen("://tongwen@", &format!("://{reader}:pw@"), 1);
    t.call("settings_set", settings(&as_reader)).unwrap();
    let sub = t.file("sub.txt", format!("{EN}\n"));
    let report = t
        .call("check", json!({"paths": [&sub], "onProgress": CHANNEL}))
        .unwrap();
    assert_eq!(report["documents"][0]["paragraphs"][0]["flagged"], true);
    let summary = t
        .call(
            "library_add",
            json!({"paths": [&sub], "onProgress": CHANNEL}),
        )
        .unwrap_or_else(|e| e);
    let said = summary.to_string();
    assert!(
        said.contains("no_right") && said.contains("tongwen_writer") && !said.contains(":pw@"),
        "{said}"
    );
    assert_eq!(
        t.call("library_list", json!({}))
            .unwrap()
            .as_array()
            .unwrap()
            .len(),
        1
    );
    let _ = postgres::Client::connect(&db.url, postgres::NoTls)
        .map(|mut c| c.batch_execute(&format!("DROP OWNED BY {reader}; DROP ROLE {reader}")));
}

#[test]
fn a_library_that_cannot_be_opened_is_reported_and_another_can_be_chosen() {
    let dir = tempfile::tempdir().unwrap();
    let damaged = dir
        .path()
        .join("data")
        .join(tongwen_engine::library::DEFAULT_FILE_NAME);
    std::fs::create_dir_all(damaged.parent().unwrap()).unwrap();
    std::fs::write(
        &damaged,
        b"this is not an SQLite database, just text ".repeat(200),
    )
    .unwrap();
    // The app starts anyway.
    let t = app_in(dir);
    let settings = t.call("settings_get", json!({})).unwrap();
    assert_eq!(settings["library_path"], damaged.display().to_string());
    let sub = t.file("sub.txt", format!("{EN}\n"));
    for (cmd, args) in [
        ("library_list", json!({})),
        (
            "library_add",
            json!({"paths": [&sub], "onProgress": CHANNEL}),
        ),
        ("library_remove", json!({"ids": [1]})),
        ("check", json!({"paths": [&sub], "onProgress": CHANNEL})),
    ] {
        let err = t.call(cmd, args).unwrap_err();
        assert_eq!(err["code"], "library", "{cmd}: {err}");
        let message = err["message"].as_str().unwrap();
        assert!(message.contains("library.sqlite"), "{cmd}: {message}");
    }
    // Nothing was written over the damaged file.
    assert!(std::fs::read(&damaged)
        .unwrap()
        .starts_with(b"this is not an SQLite"));

    // Settings point the app at another library, which then works.
    let other = t.dir.path().join("fresh/lib.sqlite").display().to_string();
    let new = json!({"library_path": other, "threshold": 0.3, "language": null});
    t.call("settings_set", json!({"settings": new})).unwrap();
    assert_eq!(t.call("library_list", json!({})).unwrap(), json!([]));
    let folder = t.file("lib/en.txt", format!("{EN}\n"));
    t.call(
        "library_add",
        json!({"paths": [folder], "onProgress": CHANNEL}),
    )
    .unwrap();
    let report = t
        .call("check", json!({"paths": [&sub], "onProgress": CHANNEL}))
        .unwrap();
    assert_eq!(report["documents"][0]["paragraphs"][0]["flagged"], true);
}

#[test]
fn an_old_library_reports_its_upgrade_and_is_updated_with_progress() {
    let t = app();
    t.file("lib/zh.txt", format!("{ZH}\n"));
    let folder = t.dir.path().join("lib").display().to_string();
    t.call(
        "library_add",
        json!({"paths": [folder], "onProgress": CHANNEL}),
    )
    .unwrap();
    let status = t.call("library_status", json!({})).unwrap();
    assert_eq!(status["needs_upgrade"], false);
    assert_eq!(status["documents"], 1);
    let settings = t.call("settings_get", json!({})).unwrap();
    make_stale(settings["library_path"].as_str().unwrap());
    let status = t.call("library_status", json!({})).unwrap();
    assert_eq!(
        (&status["needs_upgrade"], &status["stale_paragraphs"]),
        (&json!(true), &json!(1))
    );
    let sub = t.file("sub.txt", format!("{ZH}\n"));
    let e = t
        .call("check", json!({"paths": [&sub], "onProgress": CHANNEL}))
        .unwrap_err();
    assert_eq!(
        (&e["code"], &e["kind"]),
        (&json!("library"), &json!("library_needs_upgrade"))
    );
    let status = t
        .call("library_upgrade", json!({"onProgress": CHANNEL}))
        .unwrap();
    assert_eq!(status["needs_upgrade"], false);
    let report = t
        .call("check", json!({"paths": [&sub], "onProgress": CHANNEL}))
        .unwrap();
    assert_eq!(report["documents"][0]["paragraphs"][0]["flagged"], true);
}

/// Mark every paragraph of the library at `path` as fingerprinted by an older definition (as a library
/// made by an older Tongwen is).
fn make_stale(path: &str) {
    rusqlite::Connection::open(path)
        .unwrap()
        .execute(
            "UPDATE paragraphs SET algo = 1, simhash = 0, shingles = x''",
            [],
        )
        .unwrap();
}

/// Every kind of engine error has a sentence in both of the interface's languages (ui/js/i18n.js), so the
/// app never falls back to Rust's English message for a kind it knows.
#[test]
fn every_error_kind_is_said_in_both_languages_of_the_interface() {
    let i18n = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("ui/js/i18n.js"),
    )
    .expect("ui/js/i18n.js");
    for kind in tongwen_engine::error::ErrorKind::ALL {
        let name = serde_json::to_value(kind).expect("kind");
        let key = format!("'kind.{}':", name.as_str().expect("a string"));
        assert_eq!(
            i18n.matches(&key).count(),
            2,
            "{key} must be in the English and the Chinese table"
        );
    }
}

#[test]
fn files_of_a_second_start_wait_for_the_window_and_are_handed_over_once() {
    use tauri::Manager;
    let t = app();
    assert_eq!(t.call("opened_files", json!({})).unwrap(), json!([]));
    crate::commands::open::forward(
        t.webview.app_handle(),
        vec![
            "tongwen-desktop".into(),
            "essay.docx".into(),
            "--flag".into(),
        ],
        "/home/teacher",
    );
    assert_eq!(
        t.call("opened_files", json!({})).unwrap(),
        json!(["/home/teacher/essay.docx"])
    );
    assert_eq!(t.call("opened_files", json!({})).unwrap(), json!([]));
}
