//! What a server asks of goclaw (its requests: `ping`, and those goclaw refuses), bounded in
//! number on every transport. rmcp answers each request in a task of its own and sends each
//! answer in another, with no bound on either: a server that sent pings faster than their
//! answers could be delivered had goclaw holding them all (2 GB in 20 s over streamable HTTP,
//! its pings spread over resumed streams). Here at most [`ANSWERS_AT_ONCE`] requests wait for
//! their answer to be delivered; a request beyond them is dropped unanswered (a server that
//! floods is owed no answer, and one that asks at a sane pace never meets the bound).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};

use rmcp::RoleClient;
use rmcp::model::{JsonRpcMessage, RequestId, ServerJsonRpcMessage, ServerNotification};
use rmcp::service::TxJsonRpcMessage;
use rmcp::transport::{IntoTransport, Transport};

/// The most requests of one server that may wait for their answer's delivery at once: some
/// 1 MB of waiting answers at most, and room for any burst a server asks in earnest (a server
/// that sends 40 pings and waits for their answers before it goes on must have them all).
pub const ANSWERS_AT_ONCE: usize = 256;

/// A client transport whose server's requests are bounded: see the module's text.
pub struct Answering<T> {
    inner: T,
    waiting: Arc<Mutex<Waiting>>,
}

/// The requests received and not yet answered, each with whether its answer is being sent.
type Waiting = HashMap<RequestId, bool>;

/// `transport` with its server's requests bounded.
pub fn answering<E, A>(
    transport: impl IntoTransport<RoleClient, E, A>,
) -> Answering<impl Transport<RoleClient, Error = E> + 'static>
where
    E: std::error::Error + Send + Sync + 'static,
{
    Answering {
        inner: transport.into_transport(),
        waiting: Arc::default(),
    }
}

fn lock(waiting: &Mutex<Waiting>) -> MutexGuard<'_, Waiting> {
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
    /// wait and none of them has its id. A cancelled request no longer waits, unless its answer
    /// is already being sent (the send goes on: a server that cancelled each ping at once
    /// would otherwise be bounded by nothing).
    fn admits(&self, message: &ServerJsonRpcMessage) -> bool {
        match message {
            JsonRpcMessage::Request(request) => {
                let mut waiting = lock(&self.waiting);
                if waiting.len() >= ANSWERS_AT_ONCE || waiting.contains_key(&request.id) {
                    return false;
                }
                waiting.insert(request.id.clone(), false);
                true
            }
            JsonRpcMessage::Notification(notification) => {
                if let ServerNotification::CancelledNotification(cancelled) =
                    &notification.notification
                    && let Some(id) = &cancelled.params.request_id
                {
                    let mut waiting = lock(&self.waiting);
                    if waiting.get(id) == Some(&false) {
                        waiting.remove(id);
                    }
                }
                true
            }
            _ => true,
        }
    }
}

impl<T: Transport<RoleClient>> Transport<RoleClient> for Answering<T> {
    type Error = T::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleClient>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        let id = answered(&item);
        if let Some(id) = &id
            && let Some(sending) = lock(&self.waiting).get_mut(id)
        {
            *sending = true;
        }
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
            let message = self.inner.receive().await?;
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
        PingRequest, ServerRequest,
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
    async fn a_cancelled_request_frees_its_place_unless_its_answer_is_being_sent() {
        let mut transport = over(vec![ping(1), ping(2), cancel(1), cancel(2)]);
        transport.receive().await;
        transport.receive().await;
        // The answer to 2 is being sent: its send is made, not yet awaited.
        let sending = transport.send(answer(2));
        assert_eq!(received(&mut transport).await.len(), 2);
        let left: Vec<_> = lock(&transport.waiting).keys().cloned().collect();
        assert_eq!(left, [RequestId::Number(2)]);
        let _ = sending.await;
        assert!(lock(&transport.waiting).is_empty());
    }
}
