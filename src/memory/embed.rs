//! Embeddings for memory search, from an OpenAI-compatible `/embeddings` endpoint (`[memory]
//! embeddings = "PROVIDER"`, a key of `[providers]` or `openai`). Chunks are embedded when a
//! memory document is written and stored beside their text; `memory_search` then ranks by both
//! BM25 and cosine similarity (hybrid, 0.3 / 0.7 as in the original). Blocking: memory tools are
//! synchronous, so each request runs on a small runtime of its own.

use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::error::{Error, Result};

/// `[memory]` in config.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct MemoryConfig {
    /// The provider whose `/embeddings` endpoint embeds memory chunks (none: full-text only).
    pub embeddings: Option<String>,
    pub embedding_model: String,
}

impl Default for MemoryConfig {
    fn default() -> Self {
        MemoryConfig {
            embeddings: None,
            embedding_model: "text-embedding-3-small".into(),
        }
    }
}

/// An embeddings endpoint, resolved.
#[derive(Debug, Clone)]
pub struct Embedder {
    pub base_url: String,
    pub api_key: Option<String>,
    pub model: String,
}

impl Embedder {
    /// One vector per text, in order.
    pub fn embed(&self, texts: &[String]) -> Result<Vec<Vec<f32>>> {
        if texts.is_empty() {
            return Ok(Vec::new());
        }
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| Error::internal(format!("cannot start the async runtime: {e}")))?;
        let url = format!("{}/embeddings", self.base_url);
        let body = json!({"model": self.model, "input": texts}).to_string();
        let text = rt.block_on(async {
            let client = crate::providers::http::client_builder()
                .connect_timeout(Duration::from_secs(10))
                .timeout(Duration::from_secs(60))
                .build()
                .map_err(|e| Error::internal(format!("cannot build the HTTP client: {e}")))?;
            let mut request = client
                .post(&url)
                .header("content-type", "application/json")
                .body(body);
            if let Some(key) = &self.api_key {
                request = request.header("authorization", format!("Bearer {key}"));
            }
            let response = request
                .send()
                .await
                .map_err(|e| Error::upstream(format!("embeddings at {url}: {e}")))?;
            let status = response.status();
            let text = response
                .text()
                .await
                .map_err(|e| Error::upstream(format!("embeddings at {url}: {e}")))?;
            if !status.is_success() {
                let snippet: String = text.chars().take(200).collect();
                return Err(Error::upstream(format!(
                    "embeddings at {url} answered HTTP {}: {snippet}",
                    status.as_u16()
                )));
            }
            Ok(text)
        })?;
        let v: Value = serde_json::from_str(&text)
            .map_err(|e| Error::upstream(format!("embeddings at {url}: not JSON ({e})")))?;
        let mut data: Vec<(u64, Vec<f32>)> = v["data"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|d| {
                let vector = d["embedding"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(Value::as_f64)
                    .map(|x| x as f32)
                    .collect();
                (d["index"].as_u64().unwrap_or(0), vector)
            })
            .collect();
        data.sort_by_key(|(i, _)| *i);
        if data.len() != texts.len() {
            return Err(Error::upstream(format!(
                "embeddings at {url}: {} vectors for {} texts",
                data.len(),
                texts.len()
            )));
        }
        Ok(data.into_iter().map(|(_, v)| v).collect())
    }
}

/// Cosine similarity; 0 for vectors of different length or no length.
pub fn cosine(a: &[f32], b: &[f32]) -> f64 {
    if a.len() != b.len() || a.is_empty() {
        return 0.0;
    }
    let (mut dot, mut na, mut nb) = (0f64, 0f64, 0f64);
    for (x, y) in a.iter().zip(b) {
        let (x, y) = (f64::from(*x), f64::from(*y));
        dot += x * y;
        na += x * x;
        nb += y * y;
    }
    if na == 0.0 || nb == 0.0 {
        0.0
    } else {
        dot / (na.sqrt() * nb.sqrt())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vectors_compare_by_their_angle() {
        let v = vec![0.5f32, -1.25, 3.0];
        assert!((cosine(&v, &v) - 1.0).abs() < 1e-9);
        assert_eq!(cosine(&v, &[1.0, 2.0]), 0.0);
        assert!((cosine(&[1.0, 0.0], &[0.0, 1.0])).abs() < 1e-12);
    }
}
