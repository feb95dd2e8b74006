//! goclaw as an MCP server over stdio (rmcp's server side). This module owns the protocol only:
//! it lists the tools it is given and hands each `tools/call` to the caller's workers as a
//! [`Job`], so every call takes the same path as any other (`cli::mcp` runs them through the
//! gate: policy, approvals, rate limits, scrubbing, audit). Calls run concurrently, up to the
//! number of workers. The skills it is given are its prompts (`prompts/list`; `prompts/get` is
//! a `use_skill` call through the workers, so the gate's checks and scrubbing apply). The server
//! ends when the client closes stdin.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Sender;

use rmcp::ServiceExt;
use rmcp::handler::server::ServerHandler;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, GetPromptRequestParams,
    GetPromptResponse, GetPromptResult, Implementation, ListPromptsResult, ListToolsResult,
    PaginatedRequestParams, Prompt, PromptMessage, Role, ServerCapabilities, ServerConfig,
};
use rmcp::service::{RequestContext, RoleServer};
use serde_json::{Map, Value};

use crate::error::{Error, Result};

mod lines;

/// A tool as offered to the client.
#[derive(Debug, Clone)]
pub struct Offer {
    pub name: String,
    pub description: String,
    /// JSON schema of the arguments (an object schema).
    pub parameters: Value,
}

/// What a call answered: text, and whether it is an error the client's model should see.
#[derive(Debug, Clone)]
pub struct Answer {
    pub text: String,
    pub is_error: bool,
}

/// A prompt as offered to the client: a skill, by name.
#[derive(Debug, Clone)]
pub struct PromptOffer {
    pub name: String,
    pub description: String,
}

/// One `tools/call`, for a worker to run and answer.
pub struct Job {
    pub tool: String,
    pub args: Map<String, Value>,
    pub reply: tokio::sync::oneshot::Sender<Answer>,
    /// The client, when it can ask its user (form elicitation): approvals go to it.
    pub asker: Option<ClientAsker>,
}

/// The MCP client as the gate's [`Prompter`]: an approval is an `elicitation/create` with a
/// choice of once, always or deny, which the client puts to its user. A decline, a cancel or a
/// failure denies; no answer in time is a time-out.
pub struct ClientAsker {
    peer: rmcp::service::Peer<RoleServer>,
}

impl ClientAsker {
    /// The asker of a client that declared form elicitation.
    fn of(peer: &rmcp::service::Peer<RoleServer>) -> Option<ClientAsker> {
        peer.supported_elicitation_modes()
            .contains(&rmcp::service::ElicitationMode::Form)
            .then(|| ClientAsker { peer: peer.clone() })
    }
}

impl crate::tools::gate::Prompter for ClientAsker {
    fn ask(
        &self,
        tool: &str,
        subject: &crate::tools::exec::approvals::Subject,
        reason: &str,
        timeout: std::time::Duration,
        stop: &crate::tools::StopWhen,
    ) -> crate::tools::gate::Answer {
        use crate::tools::gate::Answer;
        let schema = serde_json::json!({
            "type": "object",
            "properties": {"decision": {
                "type": "string",
                "enum": ["once", "always", "deny"],
                "description": "once: run it this time; always: approve the program for good; deny: refuse it"
            }},
            "required": ["decision"]
        });
        let Ok(requested_schema) = serde_json::from_value(schema) else {
            return Answer::Deny;
        };
        let params = rmcp::model::ElicitRequestParams::FormElicitationParams {
            meta: None,
            message: format!(
                "goclaw asks for approval to run {tool}: {}\nWhy: {reason}",
                subject.command
            ),
            requested_schema,
        };
        let Ok(rt) = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
        else {
            return Answer::Deny;
        };
        // The call's stop (its deadline) is looked at as the client is asked.
        let stopped = async {
            loop {
                if let Some(why) = stop.check() {
                    return why;
                }
                tokio::time::sleep(std::time::Duration::from_millis(100)).await;
            }
        };
        let result = rt.block_on(async {
            tokio::select! {
                answered = tokio::time::timeout(
                    timeout,
                    self.peer
                        .create_elicitation_with_timeout(params, Some(timeout)),
                ) => Ok(answered),
                why = stopped => Err(why),
            }
        });
        let result = match result {
            Ok(answered) => answered,
            Err(why) => return Answer::Stopped(why),
        };
        match result {
            Err(_) => Answer::TimedOut,
            Ok(Err(_)) => Answer::Deny,
            Ok(Ok(r)) if r.action == rmcp::model::ElicitationAction::Accept => {
                match r.content.as_ref().and_then(|c| c["decision"].as_str()) {
                    Some("once") => Answer::AllowOnce,
                    Some("always") => Answer::AllowAlways,
                    _ => Answer::Deny,
                }
            }
            Ok(Ok(_)) => Answer::Deny,
        }
    }
}

struct Handler {
    tools: Arc<Vec<rmcp::model::Tool>>,
    prompts: Arc<Vec<PromptOffer>>,
    jobs: Sender<Job>,
}

impl ServerHandler for Handler {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_prompts()
                .build(),
        )
        .with_server_info(Implementation::new("goclaw", env!("CARGO_PKG_VERSION")))
        .with_instructions(
            "goclaw's tools, under goclaw's policy: a refused call answers with an error \
                 saying why.",
        )
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> std::result::Result<ListToolsResult, rmcp::ErrorData> {
        Ok(ListToolsResult::with_all_items(self.tools.as_ref().clone()))
    }

    /// A method goclaw does not serve: said so, with its name (rmcp's default message is the
    /// bare name).
    async fn on_custom_request(
        &self,
        request: rmcp::model::CustomRequest,
        _context: RequestContext<RoleServer>,
    ) -> std::result::Result<rmcp::model::CustomResult, rmcp::ErrorData> {
        Err(rmcp::ErrorData::new(
            rmcp::model::ErrorCode::METHOD_NOT_FOUND,
            format!("Method not found: {}", request.method),
            None,
        ))
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> std::result::Result<ListPromptsResult, rmcp::ErrorData> {
        let prompts = self
            .prompts
            .iter()
            .map(|p| Prompt::new(p.name.clone(), Some(p.description.clone()), None))
            .collect();
        Ok(ListPromptsResult::with_all_items(prompts))
    }

    /// A prompt is the skill `use_skill` returns, through the gate like any call (policy,
    /// the skill found again and checked now, scrubbing, audit): never a file read here.
    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> std::result::Result<GetPromptResponse, rmcp::ErrorData> {
        let Some(p) = self.prompts.iter().find(|p| p.name == request.name) else {
            return Err(rmcp::ErrorData::invalid_params(
                format!("no prompt `{}`: prompts/list names them", request.name),
                None,
            ));
        };
        let (reply, answer) = tokio::sync::oneshot::channel();
        let mut args = Map::new();
        args.insert("name".into(), Value::String(p.name.clone()));
        let job = Job {
            tool: "use_skill".into(),
            args,
            reply,
            asker: None,
        };
        let gone = || rmcp::ErrorData::internal_error("goclaw's tool workers have stopped", None);
        self.jobs.send(job).map_err(|_| gone())?;
        let answer = answer.await.map_err(|_| gone())?;
        if answer.is_error {
            return Err(rmcp::ErrorData::invalid_params(answer.text, None));
        }
        Ok(
            GetPromptResult::new(vec![PromptMessage::new_text(Role::User, answer.text)])
                .with_description(p.description.clone())
                .into(),
        )
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> std::result::Result<CallToolResponse, rmcp::ErrorData> {
        let (reply, answer) = tokio::sync::oneshot::channel();
        let job = Job {
            tool: request.name.to_string(),
            args: request.arguments.unwrap_or_default(),
            reply,
            asker: ClientAsker::of(&context.peer),
        };
        let gone = || rmcp::ErrorData::internal_error("goclaw's tool workers have stopped", None);
        self.jobs.send(job).map_err(|_| gone())?;
        let answer = answer.await.map_err(|_| gone())?;
        let content = vec![ContentBlock::text(answer.text)];
        Ok(if answer.is_error {
            CallToolResult::error(content)
        } else {
            CallToolResult::success(content)
        }
        .into())
    }
}

/// Serves `tools` and `prompts` on stdin/stdout until the client goes away, sending each call
/// to `jobs`. `gone` is raised (as a hang-up) the moment stdin ends, so the calls still running
/// stop then, not once the server has wound down.
pub fn serve_stdio(
    tools: &[Offer],
    prompts: Vec<PromptOffer>,
    jobs: Sender<Job>,
    gone: crate::tools::SignalFlag,
) -> Result<()> {
    let tools = tools
        .iter()
        .map(|t| {
            let schema = match &t.parameters {
                Value::Object(m) => m.clone(),
                _ => Map::new(),
            };
            rmcp::model::Tool::new(t.name.clone(), t.description.clone(), Arc::new(schema))
        })
        .collect();
    let handler = Handler {
        tools: Arc::new(tools),
        prompts: Arc::new(prompts),
        jobs,
    };
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| Error::internal(format!("cannot start the async runtime: {e}")))?;
    rt.block_on(async {
        let said_something = Arc::new(AtomicBool::new(false));
        let stdin = Heard {
            inner: tokio::io::stdin(),
            heard: said_something.clone(),
            gone: gone.clone(),
        };
        let service = match handler
            .serve(lines::Lines::new(stdin, tokio::io::stdout()))
            .await
        {
            Ok(service) => service,
            // The client went away before it said anything: a closed input is a normal end.
            Err(rmcp::service::ServerInitializeError::ConnectionClosed(_))
                if !said_something.load(Ordering::Relaxed) =>
            {
                return Ok(());
            }
            Err(e) => {
                return Err(Error::usage(format!(
                    "the MCP client's handshake failed: {e}"
                )));
            }
        };
        service
            .waiting()
            .await
            .map_err(|e| Error::internal(format!("the MCP server stopped: {e}")))?;
        Ok(())
    })
}

/// Stdin, noting whether the client sent anything at all, and raising `gone` at its end.
struct Heard<R> {
    inner: R,
    heard: Arc<AtomicBool>,
    gone: crate::tools::SignalFlag,
}

impl<R: tokio::io::AsyncRead + Unpin> tokio::io::AsyncRead for Heard<R> {
    fn poll_read(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
        buf: &mut tokio::io::ReadBuf<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        let before = buf.filled().len();
        let room = buf.remaining() > 0;
        let polled = std::pin::Pin::new(&mut self.inner).poll_read(cx, buf);
        if buf.filled().len() > before {
            self.heard.store(true, Ordering::Relaxed);
        } else if room && matches!(polled, std::task::Poll::Ready(_)) {
            // Nothing read with room to read into: the end of input (or a failed read).
            self.gone.raise(crate::tools::Stopped::HungUp);
        }
        polled
    }
}
