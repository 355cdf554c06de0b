//! What the page shows before its wasm has arrived: the default kernel and every built-in
//! example's title and explanation, as one JSON document. A build step writes it into the page,
//! so that the page's small preview script (`src/preview/preview.js`) can show the kernel of a
//! link or autosave and its lesson's explanation while the app is still downloading. The
//! explanations are rendered here, by the packs' own Markdown renderer, so the page has one
//! renderer and the preview shows exactly what the app will.

use serde_json::{json, Map, Value};

use crate::examples::{examples, lesson_prose_html};
use crate::DEFAULT_KERNEL;

/// The preview's data: `{"default": <kernel text>, "examples": {<id>: <notes>}, "lessons":
/// [<id>, …]}`, where a lesson's notes are `{"title", "html"}` (its prose, inert HTML as the app
/// shows it), another example's are `{"title", "text"}` (plain sentences, shown as text),
/// and `lessons` lists the built-in lessons in the order of the lesson path (the app's list of
/// them).
pub fn preview_json() -> String {
    let mut notes = Map::new();
    let mut lessons = Vec::new();
    for example in examples() {
        let entry = match lesson_prose_html(example.id) {
            Some(html) => json!({ "title": example.title, "html": html }),
            None => json!({ "title": example.title, "text": example.explanation }),
        };
        notes.insert(example.id.to_string(), entry);
        if example.is_lesson() {
            lessons.push(example.id);
        }
    }
    let data = json!({
        "default": DEFAULT_KERNEL,
        "examples": Value::Object(notes),
        "lessons": lessons,
    });
    // A tree of strings always serialises.
    serde_json::to_string(&data).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::preview_json;
    use crate::examples::{example, examples, lesson_prose_html};
    use crate::DEFAULT_KERNEL;
    use serde_json::Value;

    fn data() -> Value {
        serde_json::from_str(&preview_json()).expect("the preview data is JSON")
    }

    #[test]
    fn it_holds_the_default_kernel_and_every_example() {
        let data = data();
        assert_eq!(data["default"], DEFAULT_KERNEL);
        let notes = data["examples"].as_object().expect("an object of examples");
        assert_eq!(notes.len(), examples().len());
        for e in examples() {
            assert_eq!(notes[e.id]["title"], e.title, "{}", e.id);
        }
    }

    #[test]
    fn the_lessons_are_listed_in_the_order_of_the_lesson_path() {
        let data = data();
        let listed: Vec<&str> = data["lessons"]
            .as_array()
            .expect("a list of lessons")
            .iter()
            .filter_map(Value::as_str)
            .collect();
        let path: Vec<&str> = examples()
            .iter()
            .filter(|e| e.is_lesson())
            .map(|e| e.id)
            .collect();
        assert_eq!(listed, path);
        assert!(listed.contains(&"if-else"));
        assert!(!listed.contains(&"gemm"));
    }

    #[test]
    fn a_lesson_has_its_prose_as_the_app_renders_it() {
        let data = data();
        let html = data["examples"]["if-else"]["html"]
            .as_str()
            .expect("the if-else lesson has prose");
        assert_eq!(Some(html), lesson_prose_html("if-else"));
        assert!(html.starts_with("<p>"), "{html}");
        assert!(data["examples"]["if-else"].get("text").is_none());
    }

    #[test]
    fn an_example_without_prose_has_its_plain_explanation() {
        let data = data();
        let gemm = example("gemm").expect("the GEMM example exists");
        assert_eq!(data["examples"]["gemm"]["text"], gemm.explanation);
        assert!(data["examples"]["gemm"].get("html").is_none());
    }

    #[test]
    fn the_if_else_lesson_reads_as_its_pack_writes_it() {
        // The lesson the load budget opens: its prose as the page will show it, whole.
        let data = data();
        assert_eq!(
            data["examples"]["if-else"]["html"],
            "<p>An <code>if</code> splits the wave: lanes 0-2 run the then side while lanes 3-7 \
             wait, then the roles swap\nfor the else side. At <code>endif</code> the frame is \
             popped and all eight lanes run together again. Step\nthrough it and watch the mask \
             and the stack.</p>\n"
        );
        assert_eq!(data["examples"]["if-else"]["title"], "If / else divergence");
    }

    #[test]
    fn the_prose_carries_no_script_or_event_handler() {
        // The preview script puts `html` into the page as it is, so it must be the renderer's
        // inert output: no script, no event handler.
        let data = data();
        for (id, notes) in data["examples"].as_object().expect("examples") {
            let html = notes["html"].as_str().unwrap_or("");
            for tag in html.split('<').skip(1) {
                let tag = tag.split('>').next().unwrap_or("").to_ascii_lowercase();
                assert!(!tag.starts_with("script"), "{id}: <{tag}>");
                assert!(!tag.contains(" on"), "{id}: <{tag}>");
            }
        }
    }
}
