//! What a server sends goclaw, kept from piling up on every transport. rmcp answers each
//! request in a task of its own and sends each answer in another, and handles each
//! notification in a task too, with no bound on any: a server that sent pings faster than their
//! answers could be delivered had goclaw holding them all (2 GB in 20 s over streamable HTTP,
//! its pings spread over resumed streams), and 200 000 log notifications at once on stdio took
//! 450 MB, queued as tasks.
//!
//! Here at most [`ANSWERS_AT_ONCE`] requests wait for their answer to be delivered; a request
//! beyond them is dropped unanswered (a server that floods is owed no answer, and one that asks
//! at a sane pace never meets the bound). A request's place is freed only when its answer has
//! been sent, never by the server's `notifications/cancelled`: rmcp still answers a cancelled
//! request of a server on the current protocol, and freeing the place on the cancel let a
//! server that cancelled each ping at once grow goclaw without end (4 KB a ping). And every
//! [`YIELD_EVERY`] messages the receiver lets the tasks they started run before it reads on.

use std::collections::HashSet;
use std::sync::{Arc, Mutex, MutexGuard};

use rmcp::RoleClient;
use rmcp::model::{JsonRpcMessage, RequestId, ServerJsonRpcMessage};
use rmcp::service::TxJsonRpcMessage;
use rmcp::transport::{IntoTransport, Transport};

/// The most requests of one server that may wait for their answer's delivery at once: some
/// 1 MB of waiting answers at most, and room for any burst a server asks in earnest (a server
/// that sends 40 pings and waits for their answers before it goes on must have them all).
pub const ANSWERS_AT_ONCE: usize = 256;

/// Messages received between two turns given to the tasks they started.
const YIELD_EVERY: usize = 16;

/// A client transport whose server's messages are bounded: see the module's text.
pub struct Answering<T> {
    inner: T,
    /// The requests received whose answer has not been sent yet.
    waiting: Arc<Mutex<HashSet<RequestId>>>,
    /// Messages received since the last turn given to other tasks.
    since_yield: usize,
}

/// `transport` with its server's messages bounded.
pub fn answering<E, A>(
    transport: impl IntoTransport<RoleClient, E, A>,
) -> Answering<impl Transport<RoleClient, Error = E> + 'static>
where
    E: std::error::Error + Send + Sync + 'static,
{
    Answering {
        inner: transport.into_transport(),
        waiting: Arc::default(),
        since_yield: 0,
    }
}

fn lock(waiting: &Mutex<HashSet<RequestId>>) -> MutexGuard<'_, HashSet<RequestId>> {
    waiting
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// The request an answer (a result or an error) is for.
fn answered(message: &TxJsonRpcMessage<RoleClient>) -> Option<RequestId> {
    match message {
        JsonRpcMessage::Response(response) => Some(response.id.clone()),
        JsonRpcMessage::Error(error) => error.id.clone(),
        _ => None,
    }
}

impl<T: Transport<RoleClient>> Answering<T> {
    /// Whether `message` goes on to rmcp: a request only while fewer than [`ANSWERS_AT_ONCE`]
    /// wait and none of them has its id.
    fn admits(&self, message: &ServerJsonRpcMessage) -> bool {
        let JsonRpcMessage::Request(request) = message else {
            return true;
        };
        let mut waiting = lock(&self.waiting);
        waiting.len() < ANSWERS_AT_ONCE && waiting.insert(request.id.clone())
    }
}

impl<T: Transport<RoleClient>> Transport<RoleClient> for Answering<T> {
    type Error = T::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleClient>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        let id = answered(&item);
        let send = self.inner.send(item);
        let waiting = self.waiting.clone();
        async move {
            let sent = send.await;
            if let Some(id) = id {
                lock(&waiting).remove(&id);
            }
            sent
        }
    }

    async fn receive(&mut self) -> Option<ServerJsonRpcMessage> {
        loop {
            // Before a message is taken, never after: rmcp drops this future when another
            // event comes first, and a message taken would be lost with it.
            if self.since_yield >= YIELD_EVERY {
                self.since_yield = 0;
                tokio::task::yield_now().await;
            }
            let message = self.inner.receive().await?;
            self.since_yield += 1;
            if self.admits(&message) {
                return Some(message);
            }
        }
    }

    fn close(&mut self) -> impl Future<Output = Result<(), Self::Error>> + Send {
        self.inner.close()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use futures::SinkExt;
    use futures::channel::mpsc;
    use rmcp::model::{
        CancelledNotification, CancelledNotificationParam, ClientJsonRpcMessage, EmptyResult,
        PingRequest, ServerNotification, ServerRequest,
    };

    fn ping(id: i64) -> ServerJsonRpcMessage {
        JsonRpcMessage::request(
            ServerRequest::PingRequest(PingRequest::default()),
            RequestId::Number(id),
        )
    }

    fn answer(id: i64) -> ClientJsonRpcMessage {
        JsonRpcMessage::response(
            rmcp::model::ClientResult::EmptyResult(EmptyResult {}),
            RequestId::Number(id),
        )
    }

    fn cancel(id: i64) -> ServerJsonRpcMessage {
        JsonRpcMessage::notification(ServerNotification::CancelledNotification(
            CancelledNotification::new(CancelledNotificationParam::new(
                Some(RequestId::Number(id)),
                None,
            )),
        ))
    }

    /// A transport fed with `incoming`, then ended; what is sent to it fails (nothing reads it).
    fn over(incoming: Vec<ServerJsonRpcMessage>) -> Answering<impl Transport<RoleClient>> {
        let (to_server, _) = mpsc::unbounded::<ClientJsonRpcMessage>();
        let to_server = to_server.sink_map_err(std::io::Error::other);
        answering((to_server, futures::stream::iter(incoming)))
    }

    async fn received(transport: &mut Answering<impl Transport<RoleClient>>) -> Vec<String> {
        let mut seen = Vec::new();
        while let Some(message) = transport.receive().await {
            seen.push(match message {
                JsonRpcMessage::Request(r) => format!("request {}", r.id),
                JsonRpcMessage::Notification(_) => "notification".to_string(),
                _ => "other".to_string(),
            });
        }
        seen
    }

    #[tokio::test]
    async fn requests_beyond_the_bound_are_dropped_until_answers_are_sent() {
        let flood = (0..ANSWERS_AT_ONCE as i64 + 5).map(ping).collect();
        let mut transport = over(flood);
        let seen = received(&mut transport).await;
        assert_eq!(seen.len(), ANSWERS_AT_ONCE);
        assert_eq!(
            seen.last().unwrap(),
            &format!("request {}", ANSWERS_AT_ONCE - 1)
        );
        // A sent answer frees its place (the send fails here: the other end is gone, and the
        // request is no longer waiting either way).
        let _ = transport.send(answer(0)).await;
        assert_eq!(lock(&transport.waiting).len(), ANSWERS_AT_ONCE - 1);
    }

    #[tokio::test]
    async fn a_request_repeating_a_waiting_id_is_dropped() {
        let mut transport = over(vec![ping(7), ping(7), ping(8)]);
        assert_eq!(
            received(&mut transport).await,
            ["request 7", "request 8"].map(String::from)
        );
    }

    #[tokio::test]
    async fn a_cancel_frees_no_place_only_a_sent_answer_does() {
        let mut transport = over(vec![ping(1), cancel(1)]);
        assert_eq!(received(&mut transport).await.len(), 2);
        assert_eq!(lock(&transport.waiting).len(), 1);
        let _ = transport.send(answer(1)).await;
        assert!(lock(&transport.waiting).is_empty());
    }
}
