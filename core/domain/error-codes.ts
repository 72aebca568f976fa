import { PLATFORMS, type Platform } from './platforms';

/**
 * The one error-code registry: every `error_code` Herald can put in an error answer, a failed
 * target's result or the connect redirect, with the HTTP status of the answer that carries it,
 * what it means for an integrator and the extra body fields it comes with. Clients branch on these
 * strings, so they never change; the OpenAPI document and docs/error-codes.md are generated from it.
 */
export type HttpStatus = 400 | 401 | 403 | 404 | 405 | 408 | 409 | 413 | 415 | 416 | 429 | 431 | 500 | 502 | 503;

export interface ErrorCodeSpec {
  /**
   * The status of an error answer carrying the code; a list when the same verdict is answered in
   * more than one way (a network code: 400 for content it refuses, 502 for any other refusal).
   * Absent: the code never heads an error answer, it appears only in a failed target's result
   * (GET /uploadposts/status) or in the connect redirect.
   */
  readonly status?: HttpStatus | readonly HttpStatus[];
  /** When it happens and what to do, for an integrator. */
  readonly meaning: string;
  /** Body fields the answer carries beside success, message and error_code. */
  readonly fields?: readonly string[];
  /** A network's verdict, reported as a failed target's error_code too; see networkCode(). */
  readonly network?: true;
}

const NET_400 = { status: 400, network: true, fields: ['platform'] } as const;
const NET_502 = { status: 502, network: true, fields: ['platform'] } as const;
const NET_400_502 = { status: [400, 502], network: true, fields: ['platform'] } as const;
const RESTRICTED = { status: [429, 502], network: true, fields: ['platform', 'restriction_reason', 'restricted_until', 'retry_after_seconds'] } as const;

export const ERROR_CODES = {
  // Generic codes of each kind of error (apps/api/http-errors.ts DEFAULT_CODE).
  invalid_request: { status: 400, meaning: 'A parameter is missing or invalid. `violations[]` names each offending field; fix the request and send it again.', fields: ['violations'] },
  unauthenticated: { status: 401, meaning: 'No credential, or one this Herald does not know. Send `Authorization: Apikey <API_KEY>` (or a valid agent token).' },
  forbidden: { status: [403, 502], meaning: 'The credential may not do this (403), or the network refused the account\'s rights (502, `platform`). Use a credential or account allowed to.', fields: ['platform'] },
  not_found: { status: [404, 502], meaning: 'No such endpoint or resource (404), or the network has no such object (502, `platform`). Check the path and the ids.', fields: ['platform'] },
  conflict: { status: 409, meaning: 'The resource is in a state that does not allow this. Read it again and retry when its state allows.' },
  rate_limited: { status: [429, 502], meaning: 'Too many requests: wait `retry_after_seconds` (also the Retry-After header). As a restriction reason, the network paused the account.', fields: ['retry_after_seconds', 'platform', 'restriction_reason', 'restricted_until'], network: true },
  internal_error: { status: 500, meaning: 'An unexpected failure inside Herald; it was logged. Try again later and report it if it lasts.' },
  response_schema_mismatch: { status: 500, meaning: 'Only with HERALD_CHECK_RESPONSES (the test tiers): the answer did not match what the catalogue declares for the operation (status or body); the message names the operation and the fields. A defect of Herald, never seen in production.' },
  platform_rejected: { status: 502, meaning: 'The network refused the call for a reason of its own; `message` carries its words. Retrying unchanged rarely helps.', fields: ['platform', 'network_code'], network: true },
  unavailable: { status: 503, meaning: 'A part of Herald this needs is not available right now. Try again later.' },

  // The HTTP exchange itself (apps/api/body.ts, http-server.ts, http-errors.ts).
  invalid_body: { status: 400, meaning: 'The body cannot be read (malformed JSON, truncated multipart, an empty file field). Send a well-formed body.' },
  malformed_request: { status: 400, meaning: 'The HTTP request itself is malformed; the connection is closed. Fix the client.' },
  method_not_allowed: { status: 405, meaning: 'The path exists but not for this method; `allowed_methods` lists those it takes.', fields: ['allowed_methods'] },
  request_timeout: { status: 408, meaning: 'The request was not received in time. Send it again.' },
  body_too_large: { status: 413, meaning: 'The body (or its form fields) exceeds the size limit (`limit_bytes`). Send less, or upload media by URL.', fields: ['limit_bytes'] },
  file_too_large: { status: 413, meaning: 'A file is larger than the upload limit (`limit_bytes`). Send a smaller file or a media URL.', fields: ['limit_bytes'] },
  payload_too_large: { status: [400, 413], meaning: 'The content is larger than the network (400, `platform`) or the MCP upload endpoint (413) accepts. Send less.', fields: ['platform'], network: true },
  unsupported_media_type: { status: 415, meaning: 'The body\'s Content-Type or Content-Encoding cannot be read. Send JSON, form or multipart, uncompressed or gzip/deflate/br.' },
  headers_too_large: { status: 431, meaning: 'The request headers are too large. Send fewer or shorter headers.' },
  range_not_satisfiable: { status: 416, meaning: 'The Range asked for lies beyond the media job output. Ask for a range within its size.' },
  invalid_character: { status: 400, meaning: 'A field holds a character that cannot be stored (a NUL or a lone surrogate). Remove it.', fields: ['violations'] },
  body_too_deep: { status: 400, meaning: 'The body nests objects too deeply. Send a flatter body.', fields: ['violations'] },
  invalid_field_name: { status: 400, meaning: 'A field name cannot be stored (starts with `$` or contains `.`). Rename it.', fields: ['violations'] },
  invalid_id: { status: 400, meaning: 'An id in the path or query is not of the expected form. Send the id as Herald gave it.', fields: ['violations'] },

  // Authentication and rights.
  invalid_token: { status: 401, meaning: 'The connect token (or agent token) is not one this Herald issued. Generate a new connect link.' },
  token_expired: { status: 401, meaning: 'The connect token expired. Generate a new connect link.' },
  auth_blocked: { status: 429, meaning: 'Too many failed authentication attempts from this address; wait `retry_after_seconds`.', fields: ['retry_after_seconds'] },
  insufficient_scope: { status: 403, meaning: 'The agent token has the read-only scope. Authorize again with scope `herald` to change anything.' },
  account_key_required: { status: 403, meaning: 'Webhook and notification settings need the account API key; a profile-scoped token cannot change them.' },
  not_owner: { status: [403, 502], meaning: 'The object belongs to another profile, or on the network to another account; only the owner may change it.', fields: ['platform'], network: true },
  media_url_invalid: { status: 403, meaning: 'A signed media URL (`/media/…`, or a media job\'s `download_url`) is invalid or expired. Ask Herald for a fresh one (read the job again).' },
  invalid_grant: { status: 400, meaning: 'OAuth (agent authorization): the authorization code or refresh token is invalid, used or expired. Start the authorization again.' },
  invalid_scope: { status: 400, meaning: 'OAuth (agent authorization): the scope asked for is not one Herald grants (`herald`, `herald:read`).' },
  invalid_client: { status: 401, meaning: 'OAuth (agent authorization): the client is unknown or its credentials are wrong. Register the client again.' },
  invalid_target: { status: 400, meaning: 'OAuth (agent authorization): the resource indicator is not this MCP server. Ask for its own URL.' },

  // Profiles, plans and quotas.
  PROFILE_NOT_FOUND: { status: 404, meaning: 'No profile with this username on the account. Create it first or check the spelling.' },
  PROFILE_EXISTS: { status: 409, meaning: 'A profile with this username exists already. Use it, or choose another username.' },
  PROFILE_LIMIT_REACHED: { status: 403, meaning: 'The plan\'s profile limit is reached. Delete a profile or upgrade the plan.' },
  PROFILE_BLOCKED: { status: 403, meaning: 'The profile lies beyond the plan\'s profile limit and is blocked. Delete profiles or upgrade the plan.' },
  username_reserved: { status: 400, meaning: 'This username is an endpoint of its own and cannot name a profile. Choose another; `reserved_usernames` lists them.', fields: ['reserved_usernames'] },
  monthly_quota_exceeded: { status: 429, meaning: 'The plan\'s monthly upload quota is used up; `usage` says how much. Wait for next month or upgrade.', fields: ['usage'] },
  daily_cap_reached: { status: 429, meaning: 'A network\'s daily posting cap for the account is reached; `violations[]` gives used_last_24h and cap. Post later.', fields: ['violations'] },
  rate_cap_reached: { status: 429, meaning: 'A network\'s short-window posting rate for the account is reached; `violations[]` says which. Post a little later.', fields: ['violations'] },
  media_quota_exceeded: { status: 429, meaning: 'The plan\'s monthly media-processing minutes are not enough for this job; the body carries the consumption record.', fields: ['consumption', 'records'] },
  post_analytics_rate_limited: { status: 429, meaning: 'Live post analytics are rate limited; wait `retry_after_seconds` or read GET /post-analytics/cached.', fields: ['retry_after_seconds', 'limit'] },

  // Uploads, scheduled posts, queue.
  UPLOAD_NOT_FOUND: { status: 404, meaning: 'No upload with this request_id or job_id on the account.' },
  upload_not_found: { status: 404, meaning: 'MCP: the upload handle is unknown or expired. Create another one.' },
  upload_complete: { status: 409, meaning: 'MCP: the upload handle already has its bytes. Create another one.' },
  PLATFORM_NOT_IN_UPLOAD: { status: 404, meaning: 'The upload did not target this platform. Ask for one of its platforms.' },
  JOB_NOT_FOUND: { status: 404, meaning: 'No scheduled post or media job with this id.' },
  job_not_cancellable: { status: 409, meaning: 'The post or media job has started or ended and can no longer be cancelled; `status` says where it is.', fields: ['status'] },
  job_not_editable: { status: 409, meaning: 'The scheduled post has started and can no longer be edited.' },
  upload_not_finished: { status: 409, meaning: 'Only finished uploads can be retried, and one retry at a time. Wait for it to finish.' },
  nothing_to_retry: { status: 400, meaning: 'Every platform of the upload succeeded; there is nothing to retry.' },
  nothing_to_update: { status: 400, meaning: 'The edit carries no field to change (or nothing the network can change). Send at least one.', fields: ['violations', 'platform'], network: true },
  QUEUE_NOT_CONFIGURED: { status: 404, meaning: 'The profile has no posting queue yet. POST its queue settings first.' },
  queue_full: { status: 409, meaning: 'The posting queue has no free slot in the next 365 days. Add slots or raise posts_per_slot.' },
  platform_not_supported: { status: 400, meaning: 'The network cannot do this operation (or the platform is unknown); the message names those that can, often in `supported_platforms`. Branch on the code.', fields: ['platform', 'supported_platforms', 'unsupported_platforms', 'supported_actions', 'error'], network: true },
  reddit_unavailable: { status: 503, meaning: 'Publishing, connecting and commenting on reddit is unavailable. Remove reddit from platform[].' },
  ACCOUNT_NOT_CONNECTED: { status: 404, meaning: 'The profile has no account of this network connected, so there is nothing to disconnect.' },
  not_connected: { status: 400, meaning: 'No account of this network is connected to the profile. Connect one first.', fields: ['platform', 'type', 'error'] },
  reauth_required: { status: 409, meaning: 'The account\'s authorization expired or was revoked: reconnect it. In a result, failure_stage `precheck` means nothing was sent.', fields: ['reauth_required', 'platform', 'failure_stage', 'results'], network: true },
  account_reauth_required: { status: 409, meaning: 'The account was flagged after a checkpoint: clear it on the network (and reconnect). No credit is consumed.', fields: ['platform', 'failure_stage', 'results'], network: true },
  account_checkpoint_required: { meaning: 'In a result: the network demands a checkpoint (identity check); reconnecting alone does not clear it. Clear it on the network.', network: true },
  account_restricted: { status: 429, meaning: 'The account is paused by its network until `restricted_until` (`restriction_reason`, in each result); nothing was sent and credits were refunded. Retry after the pause. Also the fallback for a restriction reason not registered here.', fields: ['failure_stage', 'retry_after_seconds', 'results', 'platform', 'restriction_reason', 'restricted_until', 'network_code'] },
  multiple_targets: { status: 400, meaning: 'More than one of the alternative targets (comment_id, post_id, post_url) was sent. Send exactly one.', fields: ['fields', 'field'] },
  missing_target: { status: 400, meaning: 'None of the alternative targets (comment_id, post_id, post_url) was sent. Send exactly one.', fields: ['fields'] },
  missing_parameter: { status: 400, meaning: 'A required query parameter is missing; `fields` names them.', fields: ['fields'] },
  invalid_post_id: { status: 400, meaning: 'The post id is not of the form this network uses. Send the post_id Herald reported.', fields: ['field', 'platform'], network: true },
  invalid_post_url: { status: 400, meaning: 'The post URL cannot be read (e.g. a Facebook URL without the post id). Send post_id instead.', fields: ['field'] },
  post_not_found: { status: [400, 404, 502], meaning: 'The network has no such post, or not one the account can change (404 on post operations).', fields: ['platform'], network: true },
  not_redeliverable: { status: 400, meaning: 'A test delivery cannot be redelivered. Send a new test.' },
  DELIVERY_NOT_FOUND: { status: 404, meaning: 'No delivery with this id in the delivery log.' },
  no_channel_enabled: { status: 400, meaning: 'No notification channel is turned on. Save a webhook_url, telegram_chat_id or slack_webhook_url first.' },
  telegram_not_configured: { status: 400, meaning: 'This Herald has no Telegram bot token, so the Telegram channel is unavailable. Ask the operator to configure it.' },
  webhook_url_invalid: { status: 400, meaning: 'The webhook URL is not an http(s) URL without credentials.', fields: ['violations'] },
  webhook_url_unresolvable: { status: 400, meaning: 'The webhook host does not resolve. Check the host name.', fields: ['violations'] },
  webhook_url_forbidden: { status: 400, meaning: 'The webhook URL points to a private or reserved address. Use a public URL.', fields: ['violations'] },
  cursor_not_supported: { status: 400, meaning: 'This network does not page the media list with a cursor. Send limit without cursor.', fields: ['error'] },
  invalid_cursor: { status: 400, meaning: 'The cursor is not one this endpoint gave, or the filters changed. Send next_cursor unchanged, or omit it.', fields: ['field', 'platform'], network: true },
  invalid_date: { status: 400, meaning: 'A date is not YYYY-MM-DD (or ISO-8601), the start is after the end, or the range is over 366 days.', fields: ['field'] },
  invalid_period: { status: 400, meaning: 'period is not one of the accepted values; the message lists them.', fields: ['field'] },
  invalid_metric: { status: 400, meaning: 'A metric is not one this network reports. Read its catalogue for the names.', fields: ['field'] },
  invalid_platform: { status: 400, meaning: 'platform is not a known network.', fields: ['field'] },
  invalid_platforms: { status: 400, meaning: 'platforms is missing or names an unknown network.', fields: ['violations'] },
  invalid_limit: { status: 400, meaning: 'limit is not an integer within the allowed range.', fields: ['field'] },
  invalid_credentials: { status: 400, meaning: 'The network refused the credentials submitted to connect. Check them and connect again.' },

  // Media: URLs, files, commands, jobs.
  media_url_forbidden: { status: 400, meaning: 'The media URL points to a private or reserved address. Use a public URL.' },
  media_url_unreachable: { status: 400, meaning: 'The media URL does not resolve or did not answer 2xx. Check that it is public and reachable.' },
  media_too_large: { status: 400, meaning: 'The media file is larger than allowed (by Herald or the network). Send a smaller file.', fields: ['platform'], network: true },
  media_type_unsupported: { status: 400, meaning: 'The file\'s type is not one this field or network takes.', fields: ['violations', 'platform'], network: true },
  media_fetch_failed: { status: 400, meaning: 'The media could not be fetched (by Herald or the network) so nothing was sent. Check the URL.', fields: ['platform'], network: true },
  unsafe_command: { status: 400, meaning: 'The media command uses an option, protocol or input that is not allowed. Remove it.', fields: ['violations'] },
  media_jobs_unavailable: { status: 503, meaning: 'Media jobs cannot be started right now. Try again later.' },
  job_not_finished: { status: 409, meaning: 'The media job has not FINISHED; its output can be downloaded once it has.', fields: ['status'] },
  media_upload_not_found: { status: 404, meaning: 'No staged media upload with this id on the account (or it expired and was removed). Create another one.' },
  upload_url_invalid: { status: 403, meaning: 'The staged upload URL\'s signature is not Herald\'s (changed or made up). PUT to the upload_url exactly as it was given.' },
  upload_url_expired: { status: 403, meaning: 'The staged upload URL (or the upload) has expired. Create another upload.' },
  upload_offset_mismatch: { status: 409, meaning: 'The chunk does not start where the staged upload\'s bytes end; `received_bytes` says where to go on from.', fields: ['received_bytes'] },
  upload_length_mismatch: { status: 400, meaning: 'The bytes sent do not add up to the declared content_length (or Content-Range\'s total differs from it); `received_bytes` says what the upload holds.', fields: ['received_bytes', 'content_length'] },
  upload_incomplete: { status: 409, meaning: 'The staged upload holds fewer bytes than content_length; PUT the rest (from `received_bytes`) before completing it.', fields: ['received_bytes', 'content_length'] },
  upload_in_progress: { status: 409, meaning: 'Another PUT of this staged upload is still running. Wait for it (or for its connection to drop), then read received_bytes and go on.', fields: ['received_bytes'] },
  upload_already_completed: { status: 409, meaning: 'The staged upload is completed: its URL takes no more bytes. Use it in a post, or create another one.' },
  media_type_mismatch: { status: 400, meaning: 'The bytes are not of the declared content_type (`sniffed_type` says what they look like); nothing was kept. Declare the right type.', fields: ['sniffed_type'] },
  media_upload_unusable: { status: 400, meaning: 'A staged upload named in a post is not completed, expired, or of a media type this field does not take. Complete it, or stage another.', fields: ['violations'] },
  output_expired: { status: 404, meaning: 'The media job\'s output has expired. Run the job again.' },
  metrics_failed: { status: 500, meaning: 'Operator port: the metrics could not be collected. See the message.' },
  not_ready: { status: 503, meaning: 'Operator port: a dependency is not ready; `checks` says which.', fields: ['checks'] },
  error: { meaning: 'MCP: a tool error whose REST answer carried no error_code of its own; the status and message say what happened.' },
  api_unreachable: { status: 502, meaning: 'MCP: the Herald API did not answer the tool\'s REST call. Try again later.' },

  // Platform failures that Herald names itself.
  platform_unavailable: { status: 502, meaning: 'The network is failing or did not answer properly; a later attempt may succeed.', fields: ['platform'], network: true },
  platform_rate_limited: { status: 429, meaning: 'The network is throttling; wait `retry_after_seconds`.', fields: ['platform', 'retry_after_seconds'] },
  invalid_content: { status: 400, meaning: 'The network refuses this content (too long, bad media, …); `message` says why. Change the content.', fields: ['platform', 'network_code'], network: true },

  // Connect redirect only (connect_status=error|cancelled).
  invalid_state: { status: 502, meaning: 'Connect redirect: the connect link is unknown, used or expired; start again. As a network code: saved publishing state is unreadable; check the post before retrying.', network: true, fields: ['platform'] },
  user_cancelled: { meaning: 'Connect redirect: the end user declined on the network\'s consent page.' },
  network_error: { meaning: 'Connect redirect: the network answered the authorization with an error; the message carries it.' },
  missing_code: { meaning: 'Connect redirect: the network sent no authorization code. Start connecting again.' },
  invalid_input: { meaning: 'Connect redirect: Herald refused what the network returned (no more specific code). The message says why; connect again.' },

  // Network verdicts: a failed target's error_code, and the answer of a synchronous call (400 for content, 502 otherwise).
  organization_posts_only: { ...NET_400, meaning: 'LinkedIn comments and post analytics are for organization (page) posts only; this post belongs to a member.' },
  outside_reply_window: { ...NET_400, meaning: 'Instagram private replies must be sent within 24 hours of the comment; this comment is older.' },
  document_required: { ...NET_400, meaning: 'A LinkedIn document post takes exactly one document file. Send one `document` part.' },
  document_processing_failed: { ...NET_400, meaning: 'LinkedIn could not process the document. Check the file (PDF, PPT, PPTX, DOC, DOCX, up to 100 MB) and send it again.' },
  invalid_layout: { ...NET_400, meaning: 'threads_thread_media_layout does not fit the files sent. Make the layout count match the files.' },
  alt_text_too_long: { ...NET_400, meaning: 'The alt text is longer than the network allows. Shorten it.' },
  article_title: { ...NET_400, meaning: 'An X article needs a valid title. Fix the title.' },
  auth_factor_required: { ...NET_502, meaning: 'Bluesky demands a second factor for this login. Use an app password.' },
  board_not_found: { ...NET_400, meaning: 'Pinterest has no such board for the account. Check the board id.' },
  board_section_not_found: { ...NET_400, meaning: 'Pinterest has no such board section. Check the section id.' },
  body_too_long: { ...NET_400, meaning: 'The post body is longer than the network allows. Shorten it.' },
  caption_too_long: { ...NET_400, meaning: 'The caption is longer than Instagram allows. Shorten it.' },
  channel_not_found: { ...NET_502, meaning: 'The connected YouTube account has no channel.' },
  chat_migrated: { ...NET_502, meaning: 'The Telegram group became a supergroup with a new id. Reconnect with the new chat id.' },
  chat_not_found: { ...NET_502, meaning: 'Telegram has no such chat, or the bot is not in it. Check the chat id and the bot\'s membership.' },
  comments_disabled: { ...NET_502, meaning: 'Comments are disabled on this video.' },
  cover_image_invalid: { ...NET_400, meaning: 'The cover image cannot be used. Send another.' },
  cover_timestamp_out_of_range: { ...NET_400, meaning: 'The cover timestamp lies beyond the video\'s length.' },
  daily_upload_limit: { ...RESTRICTED, meaning: 'Restriction reason: the YouTube channel\'s daily upload limit; the channel is paused for 2 hours, then the post is retried.' },
  description_too_long: { ...NET_400, meaning: 'The description is longer than the network allows. Shorten it.' },
  discord_forum_thread: { ...NET_400, meaning: 'A Discord forum channel needs a thread name. Send one.' },
  duplicate_content: { ...NET_502, meaning: 'X refuses to post the same text twice. Change the text.' },
  duplicate_post: { ...NET_502, meaning: 'Facebook refused a duplicate post. Change the content.' },
  edit_limit_reached: { ...NET_400_502, status: [403, 502], meaning: 'The post was edited as often as the network allows.' },
  edit_window_closed: { ...NET_400_502, status: [403, 502], meaning: 'The network\'s edit window for the post has closed.' },
  facebook_no_pages: { ...NET_502, meaning: 'The Facebook login manages no Page. Create or get access to a Page, then connect again.' },
  facebook_page_not_connected: { ...NET_400, meaning: 'The Facebook Page asked for is not among the connected ones.' },
  facebook_page_required: { ...NET_502, meaning: 'Several Facebook Pages are connected: send facebook_page_id (the result lists `available_pages`).' },
  gbp_account_required: { ...NET_502, meaning: 'The Google account has no Business Profile account. Create one, then connect again.' },
  gbp_event_required: { ...NET_400, meaning: 'This Business Profile post type needs event fields. Send them.' },
  gbp_invalid_argument: { ...NET_400, meaning: 'Google Business Profile refused a field; the message names it.' },
  gbp_location_not_found: { ...NET_502, meaning: 'No such Business Profile location for the account. GET /google-business/locations lists them.' },
  gbp_location_required: { ...NET_502, meaning: 'Several locations are managed: send gbp_location_id.' },
  gbp_location_unverified: { ...NET_502, meaning: 'Only verified Business Profile locations can publish. Verify it.' },
  gbp_not_found: { ...NET_502, meaning: 'Google Business Profile has no such object. Check gbp_location_id.' },
  identity_confirmation: { ...RESTRICTED, meaning: 'Restriction reason: Facebook demands identity confirmation; single-page logins are paused 24 h and an email is sent.' },
  image_broken: { ...NET_400, meaning: 'Pinterest could not read the image. Send another file.' },
  image_too_large: { ...NET_400, meaning: 'The image is larger than the network allows.' },
  image_too_small: { ...NET_400, meaning: 'The image is smaller than the network allows.' },
  invalid_aspect_ratio: { ...NET_400, meaning: 'The media\'s aspect ratio is outside what Instagram takes.' },
  invalid_carousel: { ...NET_400, meaning: 'The carousel is not one Instagram takes (count or mix of items).' },
  invalid_comment_id: { ...NET_400, meaning: 'The comment id is not of the form this network uses.' },
  invalid_description: { ...NET_400, meaning: 'The description holds something YouTube refuses (e.g. angle brackets).' },
  invalid_field: { ...NET_400, meaning: 'A field does not apply to this kind of post; the message says which.' },
  invalid_link: { ...NET_400, meaning: 'The link is not one the network accepts.' },
  invalid_page_urn: { ...NET_400, meaning: 'page_urn is not a LinkedIn organization URN or id.' },
  invalid_param: { ...NET_400, meaning: 'The network refused a parameter; the message names it.' },
  invalid_parameter: { ...NET_400, meaning: 'The network refused a parameter; the message names it.' },
  invalid_parameters: { ...NET_400, meaning: 'The network refused parameters; the message names them.' },
  invalid_params: { ...NET_400, meaning: 'TikTok refused the parameters; the message names them.' },
  invalid_publish_at: { ...NET_400, meaning: 'The scheduled publish time is not one YouTube takes (past, or badly formed).' },
  invalid_setting: { ...NET_400, meaning: 'A network setting is invalid; the message names it.' },
  invalid_settings: { ...NET_400, meaning: 'Network settings are invalid; the message names them.' },
  invalid_thumb_offset: { ...NET_400, meaning: 'The thumbnail offset lies beyond the video.' },
  invalid_title: { ...NET_400, meaning: 'The title holds something the network refuses.' },
  linkedin_page_not_administered: { ...NET_400, meaning: 'The connected LinkedIn member does not administer this page.' },
  linkedin_page_required: { ...NET_400, meaning: 'This needs a LinkedIn page: send page_urn.' },
  linkedin_version_inactive: { ...NET_502, meaning: 'LinkedIn no longer serves the API version Herald uses; the operator must update Herald.' },
  lists_required: { ...NET_400, meaning: 'A Listmonk campaign needs at least one list.' },
  malformed_answer: { ...NET_502, meaning: 'The network answered with a body Herald cannot read. Try again later.' },
  media_count: { ...NET_400, meaning: 'The number of media items is outside what the network takes.' },
  media_invalid: { ...NET_400, meaning: 'The network cannot use this media file.' },
  media_kind: { ...NET_400, meaning: 'This kind of media is not taken for this post type.' },
  media_missing: { ...NET_400, meaning: 'The post needs media and has none.' },
  media_processing_failed: { ...NET_400, meaning: 'The network could not process the media. Send another file.' },
  media_rejected: { ...NET_400, meaning: 'The site refused the media file.' },
  media_required: { ...NET_400, meaning: 'This post type needs media. Send it.' },
  message_has_no_text: { ...NET_400, meaning: 'The Telegram message has no text to edit (a media message without caption).' },
  oauth_client_invalid: { ...NET_502, meaning: 'The network refused Herald\'s OAuth client id or secret; the operator must fix them.' },
  oauth_client_rejected: { ...NET_502, meaning: 'X refused Herald\'s OAuth client; the operator must check the client id and secret.' },
  oauth_code_invalid: { ...NET_502, meaning: 'The authorization code was refused. Start connecting again.' },
  oauth_code_rejected: { ...NET_502, meaning: 'X refused the authorization code. Start connecting again.' },
  oauth_refresh_token_missing: { ...NET_502, meaning: 'The network gave no refresh token. Reconnect the account.' },
  oauth_rejected: { ...NET_502, meaning: 'The network refused the authorization. Start connecting again.' },
  oauth_scope_missing: { ...NET_502, meaning: 'The authorization lacks a scope Herald needs. Reconnect and grant it.' },
  permission: { ...NET_502, status: [403, 502], meaning: 'Facebook: the Page token lacks a permission. Reconnect and grant it.' },
  permission_denied: { ...RESTRICTED, status: [403, 429, 502], meaning: 'The connection lacks a permission (403/502): reconnect and grant it. As a YouTube restriction reason: the channel is paused 24 h and an email is sent.' },
  photo_aspect_ratio: { ...NET_400, meaning: 'A photo\'s aspect ratio is outside the network\'s range.', fields: ['violations'] },
  photo_cover_index: { ...NET_400, meaning: 'The photo cover index points past the photos sent.' },
  photo_format: { ...NET_400, meaning: 'A photo\'s format is not one the network takes.', fields: ['violations'] },
  photo_layout: { ...NET_400, meaning: 'The photo layout is not one X takes.' },
  photo_too_large: { ...NET_400, meaning: 'A photo is larger than the network allows.', fields: ['violations'] },
  photo_too_small: { ...NET_400, meaning: 'A photo is smaller than the network allows.' },
  premium_required: { ...NET_400_502, status: [403, 502], meaning: 'X needs a Premium subscription for this (e.g. editing posts).' },
  processing_timeout: { ...NET_502, meaning: 'The network kept processing past Herald\'s polling budget; check the post on the network before retrying.' },
  publish_limit: { ...RESTRICTED, meaning: 'Restriction reason: Instagram\'s publishing limit; the account is paused 30 minutes.' },
  record_not_found: { ...NET_400, meaning: 'Bluesky has no such record.' },
  relays_refused: { ...NET_502, meaning: 'Every Nostr relay refused the event.' },
  reshare_disabled: { ...NET_502, status: [403, 502], meaning: 'The network does not allow resharing this post.' },
  rest_api_unavailable: { ...NET_502, meaning: 'The WordPress site does not serve the REST API at /wp-json/wp/v2.' },
  send_at_past: { ...NET_400, meaning: 'The campaign send time is in the past.' },
  snapchat_public_profile_required: { ...NET_502, meaning: 'Snapchat publishing needs a Public Profile. Create one, then connect again.' },
  spam_restricted: { ...RESTRICTED, meaning: 'Restriction reason: Instagram flagged the account for spam; it is paused 24 h (a story is refused alone).' },
  spam_risk: { ...NET_502, meaning: 'TikTok anti-spam verdict on this post. Change the content or post later.' },
  spam_risk_text: { ...NET_502, meaning: 'TikTok anti-spam verdict on the text. Change the text.' },
  spam_risk_too_many_pending_share: { ...NET_502, meaning: 'TikTok: too many drafts wait in the inbox. Publish or delete them.' },
  spam_risk_too_many_posts: { ...RESTRICTED, meaning: 'TikTok: too many posts; the account is paused 1 hour.' },
  spam_risk_user_banned_from_posting: { ...RESTRICTED, meaning: 'TikTok banned the account from posting; it is paused 7 days.' },
  text_empty: { ...NET_400_502, meaning: 'The text (or title) is empty and the network needs one.' },
  text_too_long: { ...NET_400_502, meaning: 'The text is longer than the network allows (counted its way). Shorten it.', fields: ['platform', 'violations'] },
  tiktok_privacy_unavailable: { ...NET_400, meaning: 'The privacy level asked for is not available for the TikTok account; nothing was sent. Choose one it offers.' },
  title_empty: { ...NET_400, meaning: 'The title is empty.' },
  title_required: { ...NET_400, meaning: 'This post needs a title.' },
  title_too_long: { ...NET_400, meaning: 'The title is longer than the network allows.' },
  too_many_media: { ...NET_400, meaning: 'More media items than the network takes.' },
  too_many_photos: { ...NET_400_502, meaning: 'More photos than the network takes in one post.', fields: ['platform', 'violations'] },
  unconfirmed_email: { ...NET_400, meaning: 'Bluesky video uploads need a verified email on the account. Verify it on Bluesky.' },
  unexpected_response: { ...NET_400_502, meaning: 'The network answered in a way Herald did not expect; check the post on the network before retrying.' },
  unknown_media_type: { ...NET_400, meaning: 'Instagram cannot tell the media\'s type.' },
  unsupported_image_format: { ...NET_400, meaning: 'The image format is not one the network takes.' },
  unsupported_image_type: { ...NET_400, meaning: 'The image type is not one the network takes.' },
  unsupported_media: { ...NET_400, meaning: 'This media is not supported for this post.' },
  unsupported_video_format: { ...NET_400, meaning: 'The video format is not one the network takes.' },
  upload_refused: { ...NET_502, meaning: 'Pinterest refused the media upload.' },
  video_deleted: { ...NET_502, meaning: 'The video was deleted on YouTube while it was processing.' },
  video_duration: { ...NET_400, meaning: 'The video\'s length is outside the network\'s range.' },
  video_empty: { ...NET_400, meaning: 'The video file is empty.' },
  video_format: { ...NET_400, meaning: 'The video container or codec is not one the network takes.', fields: ['violations'] },
  video_frame_rate: { ...NET_400, meaning: 'The video\'s frame rate is outside the network\'s range.', fields: ['violations'] },
  video_not_allowed: { ...NET_400, meaning: 'This post type does not take videos.', fields: ['violations'] },
  video_processing_failed: { ...NET_400, meaning: 'The network could not process the video. Send another file.' },
  video_rejected: { ...NET_400_502, meaning: 'The network rejected the video.' },
  video_resolution: { ...NET_400, meaning: 'The video\'s resolution is below the network\'s minimum.', fields: ['violations'] },
  video_too_large: { ...NET_400, meaning: 'The video is larger than the network allows.', fields: ['violations'] },
  video_too_long: { ...NET_400, meaning: 'The video is longer than the network allows.', fields: ['violations'] },
  video_too_short: { ...NET_400, meaning: 'The video is shorter than the network allows.', fields: ['violations'] },
  video_upload_not_allowed: { ...NET_502, meaning: 'Bluesky does not allow this account to upload video now (daily limit or account state).' },
  youtube_channel_daily_limit: { ...RESTRICTED, meaning: 'The YouTube channel\'s daily upload limit: the channel is paused 2 hours, then the post is retried.' },
  youtube_channel_required: { ...NET_502, meaning: 'The Google account has no YouTube channel yet. Create one, then connect again.' },
} as const satisfies Record<string, ErrorCodeSpec>;

/** Codes that exist once per network. */
export const ERROR_CODE_FAMILIES = {
  '<platform>_reconnect_required': {
    status: 400, fields: ['platform', 'capability'],
    meaning: 'The connection lacks the capability this needs (comments, trend search, profile analytics, …; e.g. `tiktok_reconnect_required`). Reconnect the account to grant it. Differs from `reauth_required` (409, an expired token).',
  },
  '<platform>_not_in_plan': {
    status: 403, meaning: 'The plan does not include posting to this network (e.g. `tiktok_not_in_plan` on the free plan). Upgrade the plan or remove the platform.',
  },
  '<platform>_<failure>': {
    meaning: 'Connect redirect: connecting failed with this kind of network failure (auth_expired, rejected, transient, …), e.g. `x_rejected`. The message says why; connect again.',
  },
} as const satisfies Record<string, ErrorCodeSpec>;

type FailureKind = 'auth_expired' | 'restricted' | 'checkpoint' | 'rate_limited' | 'invalid_content' | 'transient' | 'unsupported' | 'rejected';
export type ReconnectCode = `${Platform}_reconnect_required`;
export type NotInPlanCode = `${Platform}_not_in_plan`;
export type ConnectFailureCode = `${Platform}_${FailureKind}`;
export type ErrorCode = keyof typeof ERROR_CODES | ReconnectCode | NotInPlanCode | ConnectFailureCode;

/** Every concrete code, families expanded. */
export function allErrorCodes(): ErrorCode[] {
  const failures: FailureKind[] = ['auth_expired', 'restricted', 'checkpoint', 'rate_limited', 'invalid_content', 'transient', 'unsupported', 'rejected'];
  return [
    ...(Object.keys(ERROR_CODES) as (keyof typeof ERROR_CODES)[]),
    ...PLATFORMS.map((p) => `${p}_reconnect_required` as const),
    ...PLATFORMS.map((p) => `${p}_not_in_plan` as const),
    ...PLATFORMS.flatMap((p) => failures.map((f) => `${p}_${f}` as const)),
  ];
}

const KNOWN: ReadonlySet<string> = new Set(allErrorCodes());

export function isErrorCode(code: unknown): code is ErrorCode {
  return typeof code === 'string' && KNOWN.has(code);
}

/**
 * A code a network adapter reported, as a registered code: the adapters' own codes are registered
 * (test/unit/error-codes.test.ts scans them); a code passed through from the network's wire answer
 * that is not becomes `fallback`, and the caller keeps the network's string as `network_code`.
 */
export function networkCode(code: string | undefined, fallback: ErrorCode): ErrorCode {
  return isErrorCode(code) ? code : fallback;
}

/** Whether `code` is registered with status `status`, so it may head an answer of that status. */
export function hasStatus<S extends HttpStatus>(code: string | undefined, status: S): code is CodeWithStatus<S> {
  return isErrorCode(code) && statusesOf(errorCodeSpec(code)).includes(status);
}

/** networkCode() for an answer of status `status`: the network's code when it is registered with that status, else `fallback`. */
export function networkCodeFor<S extends HttpStatus>(code: string | undefined, status: S, fallback: CodeWithStatus<S>): CodeWithStatus<S> {
  return hasStatus(code, status) ? code : fallback;
}

/** The spec of a code, its family's for a per-network code. */
export function errorCodeSpec(code: ErrorCode): ErrorCodeSpec {
  if (code in ERROR_CODES) return ERROR_CODES[code as keyof typeof ERROR_CODES];
  if (code.endsWith('_reconnect_required')) return ERROR_CODE_FAMILIES['<platform>_reconnect_required'];
  if (code.endsWith('_not_in_plan')) return ERROR_CODE_FAMILIES['<platform>_not_in_plan'];
  return ERROR_CODE_FAMILIES['<platform>_<failure>'];
}

export const statusesOf = (spec: ErrorCodeSpec): readonly HttpStatus[] =>
  spec.status === undefined ? [] : typeof spec.status === 'number' ? [spec.status] : spec.status;

type StatusOfSpec<S> = S extends { readonly status: infer X } ? (X extends readonly (infer Y)[] ? Y : X) : never;
type FamilyStatus<C> = C extends ReconnectCode ? 400 : C extends NotInPlanCode ? 403 : never;
/** The statuses an answer carrying code `C` may have. */
export type StatusOf<C extends ErrorCode> = C extends keyof typeof ERROR_CODES ? StatusOfSpec<(typeof ERROR_CODES)[C]> : FamilyStatus<C>;
/** The codes an answer of status `S` may carry: `invalidInput` takes only codes registered as 400. */
export type CodeWithStatus<S extends HttpStatus> = { [C in ErrorCode]: S extends StatusOf<C> ? C : never }[ErrorCode];

export interface ErrorCodeRow {
  /** The code, or its pattern for a per-network family (`<platform>_not_in_plan`). */
  code: string;
  /** Statuses of the answers carrying it; empty when it appears only in results or the connect redirect. */
  status: readonly HttpStatus[];
  meaning: string;
  fields: readonly string[];
  network: boolean;
}

/** The registry as rows, sorted by code, families last: the OpenAPI `x-error-codes` list and docs/error-codes.md. */
export function errorCodeRows(): ErrorCodeRow[] {
  const row = (code: string, spec: ErrorCodeSpec): ErrorCodeRow =>
    ({ code, status: statusesOf(spec), meaning: spec.meaning, fields: spec.fields ?? [], network: spec.network === true });
  return [
    ...Object.entries(ERROR_CODES).map(([code, spec]) => row(code, spec)).sort((a, b) => a.code.localeCompare(b.code, 'en')),
    ...Object.entries(ERROR_CODE_FAMILIES).map(([code, spec]) => row(code, spec)),
  ];
}
