import {
  type ErrorCode,
  type Language,
  MAX_CORNERS_PER_MESSAGE,
  MAX_PRESCRIPTION_CORNERS,
  MAX_PRESCRIPTION_RATE_MM,
  MAX_STATION_DAYS,
  type TariffZone,
} from '@pivot/contracts';
import type { PasswordProblem } from '../errors';

/**
 * Texts the server itself writes: error messages for API clients that do not translate codes
 * (curl, scripts), per-field password problems, and mail. The web app translates codes itself.
 */
const ERROR_MESSAGES: Record<Language, Record<ErrorCode, string>> = {
  en: {
    validation_error: 'Query error - try again',
    invalid_geometry:
      'A shape is not valid: its outline crosses itself, it has no area, a hole lies outside it or it has too many corners',
    crop_area_not_found: "A crop season names a crop area that the machine's map does not have",
    invalid_crop_seasons: "The map file's crop seasons are not valid: nothing was imported",
    date_in_future: 'The water balance is known up to today: choose today or an earlier day',
    record_date_in_future: 'A record can be made for today at the latest: choose today or an earlier day',
    record_area_not_found:
      'The record names an area the machine does not have that day: choose the whole machine, a crop zone or a sector of the loaded program',
    probe_not_found: 'No probe of that name has reported near this machine',
    prescription_unreadable:
      'The prescription file could not be read: send a zipped shapefile (.shp, .dbf and .prj in one .zip), zipped ISOXML task data (TASKDATA.XML) or a GeoJSON file',
    prescription_unsafe_zip:
      'The zip file names files outside its folder or unpacks to more than the limit: it was not opened',
    prescription_projection:
      "The prescription's coordinate system could not be turned into latitude and longitude: export it in WGS 84 (EPSG:4326), with its .prj",
    prescription_no_rates:
      'No polygon of the prescription has a number in the rate column: choose the column that holds the rate',
    prescription_rate_out_of_range: `A prescribed rate is below 0 or above ${MAX_PRESCRIPTION_RATE_MM} mm: check the rate column and its unit (10 m³/ha is 1 mm)`,
    prescription_outside_machine:
      "The prescription does not lie on this machine's circle: check that it is this field's, and its coordinate system",
    invalid_day_range: `The days asked for must run from start to stop, cover at most ${MAX_STATION_DAYS} days and end no later than today`,
    password_rejected: 'The password was not accepted',
    invalid_link: 'This link is invalid, used or expired',
    unauthorized: 'User not logged in - access requires login',
    invalid_credentials: 'Incorrect email or password',
    current_password_required: 'Enter your current password to change the email',
    current_password_incorrect: 'The current password is incorrect',
    second_factor_incorrect: 'The code is wrong, already used, or out of time: enter the code the app shows now',
    second_factor_challenge_expired: 'The sign-in took too long or was tried too often: enter your password again',
    second_factor_already_enabled: 'Two-step sign-in is already on: turn it off first to set up another app',
    second_factor_not_started: 'Set up the authenticator app first',
    passkey_rejected:
      'The passkey was not accepted: it is not one of this account, or its prompt took too long. Try again',
    passkey_not_found: 'No such passkey on this account',
    too_many_passkeys: 'This account has the most passkeys it may hold: remove one first',
    second_factor_not_enabled: 'Two-step sign-in is not on for this account',
    second_factor_required:
      'Administrators of this server must use two-step sign-in: set it up on your account page first',
    forbidden: 'No permissions',
    csrf_mismatch: 'The request lacks a valid CSRF token',
    watch_only: 'You can only watch this machine: ask an administrator for control',
    not_found: 'Object not found',
    user_not_found: 'User does not exist',
    sprinkler_not_found: 'Machine does not exist',
    program_not_found: 'Machine or program does not exist',
    record_not_found: 'Machine or record does not exist',
    sprinkler_not_on_broker: 'Machine with this ID not found on the message broker',
    email_taken: 'A user with this email already exists',
    sprinkler_exists: 'Machine with this ID already exists',
    too_many_programs: 'Too many programs on the machine, delete one first',
    access_not_granted: 'The user had no access to this machine',
    last_admin: 'The last administrator cannot be removed',
    farm_not_found: 'Farm not found',
    last_owner: 'A farm needs an owner: make someone else an owner first',
    farm_name_taken: 'A farm with this name already exists',
    farm_member_exists: 'This person is a member of the farm already: change their role instead',
    invitation_pending: 'This address has an invitation to the farm waiting: resend it instead',
    invitation_not_found: 'Invitation not found',
    dealer_not_found: 'Dealer not found',
    dealer_name_taken: 'A dealer with this name already exists',
    program_name_taken: 'A program with this name already exists',
    rate_limited: 'Too many attempts - wait a moment and try again',
    internal_error: 'Server error - try again',
    sprinkler_processing_error: 'The machine answered with something that could not be processed',
    command_refused: 'The machine refused the command',
    machine_clock_wrong: "The machine's clock is wrong, so it did nothing - set its clock (NTP or GPS) and try again",
    sprinkler_unresponsive: 'The machine did not confirm the command',
    sprinkler_offline: 'The machine is offline - the command was not sent',
    request_in_progress:
      'This action is still being carried out, or was interrupted - check the machine before you try again',
    autopilot_off: "The machine's autopilot is off - set it to Suggest or Auto to water as advised",
    nothing_due: "The autopilot would start no pass now - its plan on the machine's page says why",
    sprinkler_in_alarm:
      'The machine is in alarm, or an alarm, unexpected stop or low pressure is open - it was not started',
    already_watering: 'The machine is already moving - nothing was sent',
    start_in_progress: 'A start of this machine is already being made - wait a moment and check the machine',
    idempotency_key_reused: 'This request key was already used for another request',
    payload_too_large: 'The request carries more data than the server accepts here - send less at once',
    too_many_corners: `The shapes sent have more than ${MAX_CORNERS_PER_MESSAGE.toLocaleString('en')} corners in all - simplify them or send fewer at once`,
    prescription_too_many_corners: `The prescription has more than ${MAX_PRESCRIPTION_CORNERS.toLocaleString('en')} corners in all: simplify it or export a coarser grid`,
    device_not_found: 'No controller with this ID has credentials',
    device_exists: 'A controller with this ID already has credentials - give it a new secret instead',
    broker_unreachable: 'The message broker cannot be reached - nothing was changed, try again',
    device_id_reserved: "This ID is the server's own on the message broker - give the controller another ID",
    device_account_foreign:
      'The message broker has an account of this name that the server did not make - give the controller another ID, or say to take that account over',
    push_endpoint_taken:
      'This browser receives notifications for another account - sign that account out of it first, or unsubscribe it there',
    push_keys_invalid: 'The browser sent push keys that are not valid - subscribe again',
    too_many_streams: 'Too many live views open at once - close some tabs or windows and try again',
    too_many_streams_on_server:
      'The server has as many live views open as it can hold - the page will try again in a moment',
    outbound_address_refused: 'This address points inside the network and is not allowed',
    outbound_https_required: 'Only https:// addresses are allowed',
    outbound_host_not_found: 'The host name of this address could not be found',
    webhook_not_found: 'Webhook does not exist',
    too_many_webhooks: 'Too many webhooks, delete one first',
    weather_station_not_found: 'Weather station does not exist',
  },
  pl: {
    validation_error: 'Błąd zapytania - spróbuj ponownie',
    invalid_geometry:
      'Kształt jest nieprawidłowy: jego obrys przecina się sam ze sobą, nie ma powierzchni, otwór leży poza nim albo ma zbyt wiele narożników',
    crop_area_not_found: 'Sezon uprawy wskazuje obszar uprawy, którego nie ma na mapie maszyny',
    invalid_crop_seasons: 'Sezony upraw zapisane w pliku mapy są nieprawidłowe: niczego nie zaimportowano',
    date_in_future: 'Bilans wodny jest znany najdalej do dziś: wybierz dzisiejszy lub wcześniejszy dzień',
    record_date_in_future: 'Pomiar można zapisać najdalej na dziś: wybierz dzisiejszy lub wcześniejszy dzień',
    record_area_not_found:
      'Pomiar wskazuje obszar, którego maszyna tego dnia nie ma: wybierz całą maszynę, strefę uprawy lub sektor wgranego programu',
    probe_not_found: 'Żadna sonda o tej nazwie nie raportowała w pobliżu tej maszyny',
    prescription_unreadable:
      'Nie udało się odczytać pliku zalecenia: wyślij spakowany plik shapefile (.shp, .dbf i .prj w jednym .zip), spakowane dane zadania ISOXML (TASKDATA.XML) lub plik GeoJSON',
    prescription_unsafe_zip:
      'Plik zip wskazuje pliki spoza swojego folderu lub po rozpakowaniu przekracza limit: nie został otwarty',
    prescription_projection:
      'Nie udało się przeliczyć układu współrzędnych zalecenia na szerokość i długość geograficzną: wyeksportuj je w WGS 84 (EPSG:4326), z plikiem .prj',
    prescription_no_rates:
      'Żaden wielokąt zalecenia nie ma liczby w kolumnie dawki: wybierz kolumnę, w której jest dawka',
    prescription_rate_out_of_range: `Zalecona dawka jest mniejsza od 0 lub większa niż ${MAX_PRESCRIPTION_RATE_MM} mm: sprawdź kolumnę dawki i jej jednostkę (10 m³/ha to 1 mm)`,
    prescription_outside_machine:
      'Zalecenie nie leży na kole tej maszyny: sprawdź, czy dotyczy tego pola, oraz jego układ współrzędnych',
    invalid_day_range: `Zakres dni musi biec od początku do końca, obejmować najwyżej ${MAX_STATION_DAYS} dni i kończyć się najpóźniej dzisiaj`,
    password_rejected: 'Hasło nie zostało przyjęte',
    invalid_link: 'Ten link jest nieprawidłowy, został już użyty lub wygasł',
    unauthorized: 'Użytkownik niezalogowany - dostęp wymaga zalogowania',
    invalid_credentials: 'Nieprawidłowy email lub hasło',
    current_password_required: 'Aby zmienić email, podaj obecne hasło',
    current_password_incorrect: 'Obecne hasło jest nieprawidłowe',
    second_factor_incorrect: 'Kod jest błędny, już użyty lub nieaktualny: wpisz kod, który aplikacja pokazuje teraz',
    second_factor_challenge_expired:
      'Logowanie trwało zbyt długo lub było próbowane zbyt wiele razy: wpisz hasło ponownie',
    second_factor_already_enabled:
      'Logowanie dwuetapowe jest już włączone: wyłącz je, aby skonfigurować inną aplikację',
    second_factor_not_started: 'Najpierw skonfiguruj aplikację uwierzytelniającą',
    passkey_rejected:
      'Klucz dostępu nie został przyjęty: nie należy do tego konta lub okno trwało zbyt długo. Spróbuj ponownie',
    passkey_not_found: 'Na tym koncie nie ma takiego klucza dostępu',
    too_many_passkeys: 'To konto ma już najwięcej kluczy dostępu, ile może mieć: najpierw usuń jeden',
    second_factor_not_enabled: 'Logowanie dwuetapowe nie jest włączone dla tego konta',
    second_factor_required:
      'Administratorzy tego serwera muszą używać logowania dwuetapowego: najpierw włącz je na stronie konta',
    forbidden: 'Brak uprawnień',
    csrf_mismatch: 'Żądanie nie ma prawidłowego tokenu CSRF',
    watch_only: 'Możesz tylko podglądać tę maszynę: poproś administratora o sterowanie',
    not_found: 'Nie znaleziono obiektu',
    user_not_found: 'Użytkownik nie istnieje',
    sprinkler_not_found: 'Maszyna nie istnieje',
    program_not_found: 'Maszyna lub program nie istnieje',
    record_not_found: 'Maszyna lub pomiar nie istnieje',
    sprinkler_not_on_broker: 'Nie znaleziono maszyny o tym ID w brokerze wiadomości',
    email_taken: 'Użytkownik o tym adresie email już istnieje',
    sprinkler_exists: 'Maszyna o tym ID już istnieje',
    too_many_programs: 'Zbyt wiele programów na maszynie, najpierw usuń jeden',
    access_not_granted: 'Użytkownik nie miał dostępu do tej maszyny',
    last_admin: 'Nie można usunąć ostatniego administratora',
    farm_not_found: 'Nie znaleziono gospodarstwa',
    last_owner: 'Gospodarstwo potrzebuje właściciela: najpierw uczyń właścicielem kogoś innego',
    farm_name_taken: 'Gospodarstwo o tej nazwie już istnieje',
    farm_member_exists: 'Ta osoba jest już członkiem gospodarstwa: zmień jej rolę',
    invitation_pending: 'Ten adres ma już zaproszenie do gospodarstwa: wyślij je ponownie',
    invitation_not_found: 'Nie znaleziono zaproszenia',
    dealer_not_found: 'Nie znaleziono dealera',
    dealer_name_taken: 'Dealer o tej nazwie już istnieje',
    program_name_taken: 'Program o tej nazwie już istnieje',
    rate_limited: 'Zbyt wiele prób - odczekaj chwilę i spróbuj ponownie',
    internal_error: 'Błąd serwera - spróbuj ponownie',
    sprinkler_processing_error: 'Odpowiedzi maszyny nie udało się przetworzyć',
    command_refused: 'Maszyna odrzuciła polecenie',
    machine_clock_wrong:
      'Zegar maszyny jest źle ustawiony, więc nic nie zrobiła - ustaw zegar (NTP lub GPS) i spróbuj ponownie',
    sprinkler_unresponsive: 'Maszyna nie potwierdziła polecenia',
    sprinkler_offline: 'Maszyna jest offline - polecenie nie zostało wysłane',
    request_in_progress:
      'To działanie jest jeszcze wykonywane albo zostało przerwane - sprawdź maszynę, zanim spróbujesz ponownie',
    autopilot_off: 'Autopilot tej maszyny jest wyłączony - ustaw Podpowiada lub Automatycznie, aby nawadniać wg porady',
    nothing_due: 'Autopilot nie uruchomiłby teraz nawadniania - jego plan na stronie maszyny mówi dlaczego',
    sprinkler_in_alarm:
      'Maszyna jest w alarmie albo trwa alarm, nieoczekiwane zatrzymanie lub niskie ciśnienie - nie uruchomiono jej',
    already_watering: 'Maszyna już jedzie - niczego nie wysłano',
    start_in_progress: 'Uruchamianie tej maszyny już trwa - odczekaj chwilę i sprawdź maszynę',
    idempotency_key_reused: 'Ten klucz żądania był już użyty dla innego żądania',
    payload_too_large: 'Żądanie zawiera więcej danych, niż serwer tu przyjmuje - wyślij mniej naraz',
    too_many_corners: `Przesłane kształty mają łącznie ponad ${MAX_CORNERS_PER_MESSAGE.toLocaleString('pl')} narożników - uprość je lub wyślij mniej naraz`,
    prescription_too_many_corners: `Zalecenie ma łącznie ponad ${MAX_PRESCRIPTION_CORNERS.toLocaleString('pl')} narożników: uprość je lub wyeksportuj rzadszą siatkę`,
    device_not_found: 'Żaden sterownik o tym ID nie ma danych dostępowych',
    device_exists: 'Sterownik o tym ID ma już dane dostępowe - zamiast tego nadaj mu nowy sekret',
    broker_unreachable: 'Brak połączenia z brokerem wiadomości - nic nie zmieniono, spróbuj ponownie',
    device_id_reserved: 'To ID należy do samego serwera w brokerze wiadomości - nadaj sterownikowi inne ID',
    device_account_foreign:
      'Broker wiadomości ma konto o tej nazwie, którego nie utworzył serwer - nadaj sterownikowi inne ID albo wskaż, że to konto ma zostać przejęte',
    push_endpoint_taken:
      'Ta przeglądarka otrzymuje powiadomienia dla innego konta - najpierw wyloguj tam to konto lub wyłącz w nim powiadomienia',
    push_keys_invalid: 'Przeglądarka przesłała nieprawidłowe klucze powiadomień - włącz powiadomienia ponownie',
    too_many_streams: 'Zbyt wiele widoków na żywo otwartych naraz - zamknij część kart lub okien i spróbuj ponownie',
    too_many_streams_on_server:
      'Serwer ma otwartych tyle widoków na żywo, ile może obsłużyć - strona spróbuje ponownie za chwilę',
    outbound_address_refused: 'Ten adres wskazuje do wnętrza sieci i jest niedozwolony',
    outbound_https_required: 'Dozwolone są tylko adresy https://',
    outbound_host_not_found: 'Nie znaleziono nazwy hosta tego adresu',
    webhook_not_found: 'Webhook nie istnieje',
    too_many_webhooks: 'Zbyt wiele webhooków, najpierw usuń jeden',
    weather_station_not_found: 'Stacja pogodowa nie istnieje',
  },
};

const PASSWORD_MESSAGES: Record<Language, Record<PasswordProblem, string>> = {
  en: {
    min_length: 'The password needs at least 8 characters',
    lowercase: 'The password needs a lower-case letter',
    uppercase: 'The password needs an upper-case letter',
    digit: 'The password needs a digit',
    special: 'The password needs a special character',
    incorrect: 'The current password is incorrect',
    mismatch: 'Passwords must be the same',
    unchanged: 'The new password must differ from the current one',
  },
  pl: {
    min_length: 'Hasło musi mieć co najmniej 8 znaków',
    lowercase: 'Hasło musi zawierać małą literę',
    uppercase: 'Hasło musi zawierać wielką literę',
    digit: 'Hasło musi zawierać cyfrę',
    special: 'Hasło musi zawierać znak specjalny',
    incorrect: 'Obecne hasło jest nieprawidłowe',
    mismatch: 'Hasła muszą być takie same',
    unchanged: 'Nowe hasło musi różnić się od obecnego',
  },
};

export function errorMessage(code: ErrorCode, language: Language): string {
  return ERROR_MESSAGES[language][code];
}

export function passwordMessage(problem: PasswordProblem, language: Language): string {
  return PASSWORD_MESSAGES[language][problem];
}

/**
 * What `npm run backup`, `npm run restore` and `npm run broker:reprovision` tell the operator, and
 * why a backup is refused (BackupFileError carries one of these codes and its parameters). Each
 * says what is wrong and what to do.
 */
type OperatorTexts = {
  backup_encryption_settings_refused: (p: { file: string }) => string;
  backup_not_a_backup: (p: { file: string }) => string;
  backup_truncated_in_header: (p: { file: string }) => string;
  backup_header_unreadable: (p: { file: string }) => string;
  backup_no_such_file: (p: { file: string }) => string;
  backup_truncated: (p: { file: string; size: number; expected: number }) => string;
  backup_extra_bytes: (p: { file: string; extra: number }) => string;
  backup_seal_mismatch: (p: { file: string }) => string;
  backup_checksum_mismatch: (p: { file: string }) => string;
  backup_wrong_passphrase: () => string;
  backup_passphrase_required: () => string;
  backup_unexpectedly_unencrypted: () => string;
  backup_payload_unreadable: (p: { reason: string }) => string;
  backup_changed_while_read: (p: { file: string }) => string;
  backup_from_newer_version: (p: { migration: string }) => string;
  backup_database_ahead: () => string;
  backup_line_unreadable: () => string;
  backup_unexpected_table: (p: { table: string }) => string;
  backup_row_count_mismatch: (p: { table: string; rows: number; expected: number }) => string;
  backup_files_mismatch: () => string;
  backup_columns_mismatch: (p: { table: string; migration: string }) => string;
  restore_failed_and_undone: (p: { cause: string }) => string;
  restore_target_not_empty: (p: { rows: number }) => string;
  restore_server_running: (p: { dataDir: string }) => string;
  running_server_unencrypted: (p: { url: string }) => string;
  running_server_other_passphrase: (p: { url: string }) => string;
  running_server_refused: (p: { url: string; status: number }) => string;
  usage: () => string;
  usage_out_missing: () => string;
  usage_file_missing: () => string;
  usage_lang: (p: { value: string }) => string;
  command_failed: (p: { reason: string }) => string;
  backup_asking_running_server: (p: { pid: number; dataDir: string }) => string;
  backup_written: (p: { file: string; bytes: number }) => string;
  backup_taken_line: (p: { takenAt: string; version: string; migration: string }) => string;
  backup_machines_line: (p: { machines: number; rows: number; tables: number }) => string;
  backup_files_line: (p: { files: string[] }) => string;
  backup_encrypted_line: () => string;
  backup_unencrypted_line: () => string;
  backup_unencrypted_warning: () => string;
  restored: (p: { file: string; where: string }) => string;
  restored_into_database_url: () => string;
  restored_start_server: () => string;
  reprovision_embedded_broker: () => string;
  reprovision_no_accounts_kept: (p: { deviceAuth: string }) => string;
  reprovision_server_running: (p: { dataDir: string }) => string;
  reprovision_progress: (p: { done: number; total: number }) => string;
  reprovision_waiting: () => string;
  reprovision_summary: (p: { missing: number; restored: number; unrestorable: string[] }) => string;
};

const CLEAR_SECRETS: Record<Language, string> = {
  en: "the server's secrets in the clear (webhook signing secrets, the Web Push private key): keep it as safe as the server, or set BACKUP_PASSPHRASE",
  pl: 'sekrety serwera w postaci jawnej (sekrety podpisujące webhooki, klucz prywatny Web Push): przechowuj ją tak bezpiecznie jak serwer albo ustaw BACKUP_PASSPHRASE',
};

const OPERATOR_MESSAGES: Record<Language, OperatorTexts> = {
  en: {
    backup_encryption_settings_refused: ({ file }) =>
      `${file}: the backup's encryption settings are not ones this product writes; the file is damaged or was altered.`,
    backup_not_a_backup: ({ file }) => `${file} is not a Pivot backup (or its header is damaged).`,
    backup_truncated_in_header: ({ file }) => `${file} is truncated: it ends inside its header. Use another backup.`,
    backup_header_unreadable: ({ file }) =>
      `${file}: the backup's header cannot be read; the file is damaged or from a newer version.`,
    backup_no_such_file: ({ file }) => `${file}: no such file.`,
    backup_truncated: ({ file, size, expected }) =>
      `${file} is truncated: ${size} bytes of ${expected}. It was cut short while being written or copied; use another backup.`,
    backup_extra_bytes: ({ file, extra }) => `${file} has ${extra} bytes too many: it is damaged.`,
    backup_seal_mismatch: ({ file }) =>
      `${file} was altered or damaged: its header does not match its seal. Use another backup.`,
    backup_checksum_mismatch: ({ file }) => `${file} is corrupted: its checksum does not match. Use another backup.`,
    backup_wrong_passphrase: () =>
      'BACKUP_PASSPHRASE does not open this backup: the passphrase is wrong, or the file was altered.',
    backup_passphrase_required: () =>
      'This backup is encrypted: set BACKUP_PASSPHRASE to the passphrase it was made with.',
    backup_unexpectedly_unencrypted: () =>
      'This backup is not encrypted, yet BACKUP_PASSPHRASE is set: it may have been swapped. If you know it was made without a passphrase, add --allow-unencrypted.',
    backup_payload_unreadable: ({ reason }) => `The backup's payload cannot be read: ${reason}`,
    backup_changed_while_read: ({ file }) => `${file} changed while it was being read: use a copy no one writes to.`,
    backup_from_newer_version: ({ migration }) =>
      `This backup was made by a newer version of Pivot (its database has migration ${migration}, which this version does not know): restore it with that version or newer.`,
    backup_database_ahead: () =>
      'The database has a migration this version does not know: back it up with the version of Pivot it belongs to.',
    backup_line_unreadable: () =>
      'The backup holds a line this version cannot read: it is damaged or from a newer version.',
    backup_unexpected_table: ({ table }) =>
      `The backup's content does not match its manifest (${table}): it is damaged or was altered.`,
    backup_row_count_mismatch: ({ table, rows, expected }) =>
      `The backup's content does not match its manifest (${table}: ${rows} rows of ${expected}): it is damaged or was altered.`,
    backup_files_mismatch: () =>
      "The backup's content does not match its manifest (the data folder’s files): it is damaged or was altered.",
    backup_columns_mismatch: ({ table, migration }) =>
      `The backup's rows of ${table} do not fit the schema of its migration ${migration}: it is damaged or was altered.`,
    restore_failed_and_undone: ({ cause }) =>
      `The restore failed while loading the backup and was undone, so the database is as it was: ${cause}`,
    restore_target_not_empty: ({ rows }) =>
      `The target database is not empty (${rows} rows). Restore into an empty data folder or database, or add --force to replace everything in it.`,
    restore_server_running: ({ dataDir }) =>
      `A server is running on ${dataDir}: stop it before restoring into its data folder.`,
    running_server_unencrypted: ({ url }) =>
      `The running server at ${url} makes unencrypted backups (it has no BACKUP_PASSPHRASE), and this command was given one: nothing was written. Set the same BACKUP_PASSPHRASE for the server and restart it, or stop the server and run the backup again.`,
    running_server_other_passphrase: ({ url }) =>
      `The running server at ${url} encrypts its backups with another BACKUP_PASSPHRASE than this command's: nothing was written. Give both the same one.`,
    running_server_refused: ({ url, status }) => `The running server at ${url} refused the backup (HTTP ${status}).`,
    usage: () =>
      'usage: backup --out <file> [--lang pl|en]  |  restore <file> [--force] [--allow-unencrypted] [--lang pl|en]',
    usage_out_missing: () => '--out names the file to write',
    usage_file_missing: () => 'name the backup file to restore',
    usage_lang: ({ value }) => `--lang takes pl or en, not "${value}"`,
    command_failed: ({ reason }) => `The command failed: ${reason}`,
    backup_asking_running_server: ({ pid, dataDir }) =>
      `The server (pid ${pid}) runs on ${dataDir}: asking it for the backup.`,
    backup_written: ({ file, bytes }) => `Backup written to ${file} (${bytes} bytes)`,
    backup_taken_line: ({ takenAt, version, migration }) =>
      `  taken:      ${takenAt} by version ${version} (${migration})`,
    backup_machines_line: ({ machines, rows, tables }) => `  machines:   ${machines}, ${rows} rows in ${tables} tables`,
    backup_files_line: ({ files }) => `  files:      ${files.join(', ') || 'none'}`,
    backup_encrypted_line: () => '  encrypted:  yes (AES-256-GCM, scrypt)',
    backup_unencrypted_line: () => `  encrypted:  no: it holds password hashes and ${CLEAR_SECRETS.en}`,
    backup_unencrypted_warning: () => `Warning: this backup is not encrypted. It holds ${CLEAR_SECRETS.en}.`,
    restored: ({ file, where }) => `Restored ${file} into ${where}`,
    restored_into_database_url: () => 'the database at DATABASE_URL',
    restored_start_server: () => 'Start the server: the log will record the restore.',
    reprovision_embedded_broker: () =>
      'The embedded broker: the server keeps no accounts on this broker, so there are none to give back.',
    reprovision_no_accounts_kept: ({ deviceAuth }) =>
      `MQTT_DEVICE_AUTH=${deviceAuth}: the server keeps no accounts on this broker, so there are none to give back.`,
    reprovision_server_running: ({ dataDir }) =>
      `A server is running on ${dataDir} (PGlite is one process's): use Admin → Machines → Controllers → "Restore broker accounts", or stop it first.`,
    reprovision_progress: ({ done, total }) => `restoring: ${done} of ${total}`,
    reprovision_waiting: () => 'another server or command is restoring the accounts: waiting for it',
    reprovision_summary: ({ missing, restored, unrestorable }) =>
      [
        `missing on the broker: ${missing}`,
        `made again:            ${restored}`,
        `cannot be given back:  ${unrestorable.length}${unrestorable.length > 0 ? ` (${unrestorable.join(', ')}): give each a new secret` : ''}`,
      ].join('\n'),
  },
  pl: {
    backup_encryption_settings_refused: ({ file }) =>
      `${file}: ustawienia szyfrowania kopii nie są takie, jakie zapisuje ten produkt; plik jest uszkodzony albo został zmieniony.`,
    backup_not_a_backup: ({ file }) => `${file} nie jest kopią zapasową Pivot (albo jej nagłówek jest uszkodzony).`,
    backup_truncated_in_header: ({ file }) => `${file} jest ucięty: kończy się w nagłówku. Użyj innej kopii zapasowej.`,
    backup_header_unreadable: ({ file }) =>
      `${file}: nie da się odczytać nagłówka kopii; plik jest uszkodzony albo pochodzi z nowszej wersji.`,
    backup_no_such_file: ({ file }) => `${file}: nie ma takiego pliku.`,
    backup_truncated: ({ file, size, expected }) =>
      `${file} jest ucięty: ${size} bajtów z ${expected}. Przerwano go przy zapisie lub kopiowaniu; użyj innej kopii zapasowej.`,
    backup_extra_bytes: ({ file, extra }) => `${file} ma o ${extra} bajtów za dużo: jest uszkodzony.`,
    backup_seal_mismatch: ({ file }) =>
      `${file} został zmieniony lub uszkodzony: jego nagłówek nie zgadza się z pieczęcią. Użyj innej kopii zapasowej.`,
    backup_checksum_mismatch: ({ file }) =>
      `${file} jest uszkodzony: jego suma kontrolna się nie zgadza. Użyj innej kopii zapasowej.`,
    backup_wrong_passphrase: () =>
      'BACKUP_PASSPHRASE nie otwiera tej kopii: hasło jest błędne albo plik został zmieniony.',
    backup_passphrase_required: () =>
      'Ta kopia jest zaszyfrowana: ustaw BACKUP_PASSPHRASE na hasło, z którym została wykonana.',
    backup_unexpectedly_unencrypted: () =>
      'Ta kopia nie jest zaszyfrowana, a BACKUP_PASSPHRASE jest ustawione: plik mógł zostać podmieniony. Jeśli wiesz, że wykonano ją bez hasła, dodaj --allow-unencrypted.',
    backup_payload_unreadable: ({ reason }) => `Nie da się odczytać zawartości kopii: ${reason}`,
    backup_changed_while_read: ({ file }) =>
      `${file} zmienił się w trakcie odczytu: użyj kopii, do której nikt nie zapisuje.`,
    backup_from_newer_version: ({ migration }) =>
      `Tę kopię wykonała nowsza wersja Pivot (jej baza ma migrację ${migration}, której ta wersja nie zna): odtwórz ją tą wersją lub nowszą.`,
    backup_database_ahead: () =>
      'Baza ma migrację, której ta wersja nie zna: wykonaj kopię tą wersją Pivot, do której należy.',
    backup_line_unreadable: () =>
      'Kopia zawiera wiersz, którego ta wersja nie potrafi odczytać: jest uszkodzona albo pochodzi z nowszej wersji.',
    backup_unexpected_table: ({ table }) =>
      `Zawartość kopii nie zgadza się z jej manifestem (${table}): jest uszkodzona albo została zmieniona.`,
    backup_row_count_mismatch: ({ table, rows, expected }) =>
      `Zawartość kopii nie zgadza się z jej manifestem (${table}: ${rows} wierszy z ${expected}): jest uszkodzona albo została zmieniona.`,
    backup_files_mismatch: () =>
      'Zawartość kopii nie zgadza się z jej manifestem (pliki folderu danych): jest uszkodzona albo została zmieniona.',
    backup_columns_mismatch: ({ table, migration }) =>
      `Wiersze tabeli ${table} w kopii nie pasują do schematu jej migracji ${migration}: kopia jest uszkodzona albo została zmieniona.`,
    restore_failed_and_undone: ({ cause }) =>
      `Odtwarzanie nie powiodło się podczas wczytywania kopii i zostało wycofane, więc baza jest taka jak przedtem: ${cause}`,
    restore_target_not_empty: ({ rows }) =>
      `Docelowa baza nie jest pusta (wierszy: ${rows}). Odtwórz kopię do pustego folderu danych lub pustej bazy albo dodaj --force, aby zastąpić wszystko, co w niej jest.`,
    restore_server_running: ({ dataDir }) =>
      `Na ${dataDir} działa serwer: zatrzymaj go przed odtwarzaniem do jego folderu danych.`,
    running_server_unencrypted: ({ url }) =>
      `Działający serwer pod ${url} wykonuje niezaszyfrowane kopie (nie ma BACKUP_PASSPHRASE), a to polecenie je dostało: niczego nie zapisano. Ustaw serwerowi to samo BACKUP_PASSPHRASE i uruchom go ponownie albo zatrzymaj serwer i wykonaj kopię jeszcze raz.`,
    running_server_other_passphrase: ({ url }) =>
      `Działający serwer pod ${url} szyfruje kopie innym BACKUP_PASSPHRASE niż to polecenie: niczego nie zapisano. Ustaw obu to samo.`,
    running_server_refused: ({ url, status }) => `Działający serwer pod ${url} odmówił kopii (HTTP ${status}).`,
    usage: () =>
      'użycie: backup --out <plik> [--lang pl|en]  |  restore <plik> [--force] [--allow-unencrypted] [--lang pl|en]',
    usage_out_missing: () => '--out wskazuje plik do zapisania',
    usage_file_missing: () => 'podaj plik kopii do odtworzenia',
    usage_lang: ({ value }) => `--lang przyjmuje pl albo en, a nie "${value}"`,
    command_failed: ({ reason }) => `Polecenie nie powiodło się: ${reason}`,
    backup_asking_running_server: ({ pid, dataDir }) => `Na ${dataDir} działa serwer (pid ${pid}): prosimy go o kopię.`,
    backup_written: ({ file, bytes }) => `Kopię zapisano w ${file} (${bytes} bajtów)`,
    backup_taken_line: ({ takenAt, version, migration }) =>
      `  wykonana:     ${takenAt} przez wersję ${version} (${migration})`,
    backup_machines_line: ({ machines, rows, tables }) =>
      `  maszyny:      ${machines}; wiersze: ${rows}, tabele: ${tables}`,
    backup_files_line: ({ files }) => `  pliki:        ${files.join(', ') || 'brak'}`,
    backup_encrypted_line: () => '  zaszyfrowana: tak (AES-256-GCM, scrypt)',
    backup_unencrypted_line: () => `  zaszyfrowana: nie: zawiera skróty haseł i ${CLEAR_SECRETS.pl}`,
    backup_unencrypted_warning: () => `Uwaga: ta kopia nie jest zaszyfrowana. Zawiera ${CLEAR_SECRETS.pl}.`,
    restored: ({ file, where }) => `Odtworzono ${file} do ${where}`,
    restored_into_database_url: () => 'bazy pod DATABASE_URL',
    restored_start_server: () => 'Uruchom serwer: dziennik zapisze odtworzenie.',
    reprovision_embedded_broker: () =>
      'Wbudowany broker: serwer nie prowadzi kont na tym brokerze, więc nie ma czego przywracać.',
    reprovision_no_accounts_kept: ({ deviceAuth }) =>
      `MQTT_DEVICE_AUTH=${deviceAuth}: serwer nie prowadzi kont na tym brokerze, więc nie ma czego przywracać.`,
    reprovision_server_running: ({ dataDir }) =>
      `Na ${dataDir} działa serwer (PGlite należy do jednego procesu): użyj Panel administratora → Maszyny → Sterowniki → „Odtwórz konta na brokerze” albo najpierw go zatrzymaj.`,
    reprovision_progress: ({ done, total }) => `przywracanie: ${done} z ${total}`,
    reprovision_waiting: () => 'inny serwer lub polecenie przywraca konta: czekam, aż skończy',
    reprovision_summary: ({ missing, restored, unrestorable }) =>
      [
        `brak na brokerze:         ${missing}`,
        `utworzone ponownie:       ${restored}`,
        `nie da się przywrócić:    ${unrestorable.length}${unrestorable.length > 0 ? ` (${unrestorable.join(', ')}): nadaj każdemu nowy sekret` : ''}`,
      ].join('\n'),
  },
};

export type OperatorMessageCode = keyof OperatorTexts;
export type OperatorMessageParams<C extends OperatorMessageCode> = Parameters<OperatorTexts[C]>;

export const OPERATOR_MESSAGE_CODES = Object.keys(OPERATOR_MESSAGES.en) as OperatorMessageCode[];

export function operatorMessage<C extends OperatorMessageCode>(
  code: C,
  language: Language,
  ...params: OperatorMessageParams<C>
): string {
  const text = OPERATOR_MESSAGES[language][code] as (...args: OperatorMessageParams<C>) => string;
  return text(...params);
}

/** A local moment as the autopilot tells it: today's or tomorrow's time, or another day's (dd.mm). */
export type SpokenMoment = { day: 'today' | 'tomorrow' | 'other'; date: string; time: string };
/** A tariff's zone as the autopilot names it: the tariff's name (G12) and the zone. */
export type SpokenZone = { tariff: string; zone: TariffZone };
type WaterUnit = 'm3' | 'mm';

/**
 * What the autopilot says of each decision (docs/autopilot.md), with its reason and its figures.
 * Numbers are written as the reader's language writes them (0,6 in Polish).
 */
type AutopilotTexts = {
  start: (p: { at: SpokenMoment; zone: SpokenZone | null; due: SpokenMoment; late: boolean }) => string;
  wait_tariff: (p: {
    until: SpokenMoment;
    zone: SpokenZone;
    price: number;
    priceNow: number;
    currency: string;
    due: SpokenMoment;
  }) => string;
  wait_hours: (p: { until: SpokenMoment; due: SpokenMoment; late: boolean }) => string;
  skip_rain: (p: { rainMm: number; withinHours: number; depletionMm: number; rawMm: number }) => string;
  reconcile: (p: { forecastMm: number; fallenMm: number; then: string }) => string;
  pause_wind: (p: { windMs: number; maxMs: number }) => string;
  pause_frost: (p: { temperatureC: number; minC: number }) => string;
  resume: (p: { windMs: number | null; temperatureC: number | null }) => string;
  queue_pump: (p: { pump: string; maxAtOnce: number; ahead: string[] }) => string;
  /** The machines of the pump the reader is not granted, as a queue names them (not by name). */
  pump_peers_unnamed: (p: { count: number }) => string;
  refuse_offline: () => string;
  refuse_alarm: () => string;
  /** `incident`: its title, as the alerts name it; null in decisions kept before it was named. */
  refuse_incident: (p: { incident: string | null }) => string;
  refuse_no_station: () => string;
  refuse_nothing_to_send: () => string;
  refuse_allowance: (p: { pass: number; left: number; used: number; amount: number; unit: WaterUnit }) => string;
  not_due: (p: { trigger: SpokenMoment | null; depletionMm: number | null; rawMm: number | null }) => string;
  watering: () => string;
  allowance_warning: (p: {
    share: number;
    used: number;
    amount: number;
    unit: WaterUnit;
    wouldPass: boolean;
  }) => string;
};

const numberFormats = new Map<string, Intl.NumberFormat>();
/** A number as the language writes it, with at most `digits` decimals (exactly that many when `fixed`). */
function spokenNumber(value: number, language: Language, digits: number, fixed = false): string {
  const key = `${language}|${digits}|${fixed}`;
  let format = numberFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(language, {
      maximumFractionDigits: digits,
      minimumFractionDigits: fixed ? digits : 0,
    });
    numberFormats.set(key, format);
  }
  return format.format(value);
}

const UNITS: Record<WaterUnit, string> = { m3: 'm³', mm: 'mm' };
const ZONE_NAMES: Record<Language, Record<TariffZone, string>> = {
  en: { night: 'night', day: 'day', peak: 'peak', off_peak: 'off-peak' },
  pl: { night: 'nocna', day: 'dzienna', peak: 'szczytowa', off_peak: 'pozaszczytowa' },
};

const enMoment = ({ day, date, time }: SpokenMoment) =>
  day === 'today' ? time : day === 'tomorrow' ? `${time} tomorrow` : `${time} on ${date}`;
const plMoment = ({ day, date, time }: SpokenMoment) =>
  day === 'today' ? time : day === 'tomorrow' ? `jutro ${time}` : `${date} ${time}`;
const enZone = ({ tariff, zone }: SpokenZone) => `the ${tariff} ${ZONE_NAMES.en[zone]} zone`;
const plZone = ({ tariff, zone }: SpokenZone) => `strefa ${ZONE_NAMES.pl[zone]} ${tariff}`;
const en = (value: number, digits = 1) => spokenNumber(value, 'en', digits);
const pl = (value: number, digits = 1) => spokenNumber(value, 'pl', digits);
/** "1 maszynę", "2 maszyny", "5 maszyn" (the accusative after "zasila"). */
function plMachines(count: number): string {
  const lastTwo = count % 100;
  const last = count % 10;
  if (count === 1) return '1 maszynę';
  if (last >= 2 && last <= 4 && (lastTwo < 12 || lastTwo > 14)) return `${count} maszyny`;
  return `${count} maszyn`;
}

/** "inna maszyna na tej pompie", "2 inne maszyny…", "5 innych maszyn…" (the nominative). */
function plOtherMachines(count: number): string {
  const lastTwo = count % 100;
  const last = count % 10;
  if (count === 1) return 'inna maszyna na tej pompie';
  if (last >= 2 && last <= 4 && (lastTwo < 12 || lastTwo > 14)) return `${count} inne maszyny na tej pompie`;
  return `${count} innych maszyn na tej pompie`;
}

const AUTOPILOT_TEXTS: Record<Language, AutopilotTexts> = {
  en: {
    start: ({ at, zone, due, late }) =>
      `Start ${enMoment(at)}${zone ? `, ${enZone(zone)}` : ''}; latest start ${enMoment(due)}${late ? ', already passed' : ''}`,
    wait_tariff: ({ until, zone, price, priceNow, currency, due }) =>
      `Start put off until ${enMoment(until)}, ${enZone(zone)} (${spokenNumber(price, 'en', 2, true)} instead of ${spokenNumber(priceNow, 'en', 2, true)} ${currency}/kWh); latest start ${enMoment(due)}`,
    wait_hours: ({ until, due, late }) =>
      `Start put off until ${enMoment(until)}, the first allowed hour; latest start ${enMoment(due)}${late ? ', already passed' : ''}`,
    skip_rain: ({ rainMm, withinHours, depletionMm, rawMm }) =>
      `Skipped: ${en(rainMm)} mm of rain forecast within ${withinHours} h; soil water deficit ${en(depletionMm, 0)} of ${en(rawMm, 0)} mm (RAW)`,
    reconcile: ({ forecastMm, fallenMm, then }) =>
      `Irrigation back: ${en(forecastMm)} mm of rain was forecast, ${en(fallenMm)} mm fell. ${then}`,
    pause_wind: ({ windMs, maxMs }) => `Paused: wind ${en(windMs)} m/s, above the ${en(maxMs)} m/s limit`,
    pause_frost: ({ temperatureC, minC }) => `Paused: ${en(temperatureC)} °C, below the ${en(minC)} °C frost limit`,
    resume: ({ windMs, temperatureC }) =>
      windMs === null || temperatureC === null
        ? 'Resumed: no weather limit holds the machine any longer'
        : `Resumed: wind ${en(windMs)} m/s and ${en(temperatureC)} °C are back within the limits`,
    queue_pump: ({ pump, maxAtOnce, ahead }) =>
      `Queued: the pump ${pump} feeds at most ${maxAtOnce} ${maxAtOnce === 1 ? 'machine' : 'machines'} at once; ahead: ${ahead.join(', ')}`,
    pump_peers_unnamed: ({ count }) =>
      count === 1 ? 'another machine on this pump' : `${count} other machines on this pump`,
    refuse_offline: () => 'Not started: the machine is offline',
    refuse_alarm: () => 'Not started: the machine reports an alarm',
    refuse_incident: ({ incident }) =>
      incident === null ? 'Not started: the machine has an open incident' : `Not started: open incident “${incident}”`,
    refuse_no_station: () =>
      'Not started: no recent wind and temperature reading from the station to check the limits against',
    refuse_nothing_to_send: () =>
      'Not started yet: the program from the advice waters no sector where the arm would reach it in time; looked at again shortly',
    refuse_allowance: ({ pass, left, used, amount, unit }) =>
      `Not started: the pass would use ${en(pass, 0)} ${UNITS[unit]} and ${en(left, 0)} ${UNITS[unit]} of the season's allowance are left (${en(used, 0)} of ${en(amount, 0)} ${UNITS[unit]} used)`,
    not_due: ({ trigger, depletionMm, rawMm }) =>
      `Not due: ${trigger ? `the first area needs water at ${enMoment(trigger)}` : 'no area needs water within the forecast'}${depletionMm !== null && rawMm !== null ? `; soil water deficit ${en(depletionMm, 0)} of ${en(rawMm, 0)} mm (RAW)` : ''}`,
    watering: () => 'Watering: nothing to change',
    allowance_warning: ({ share, used, amount, unit, wouldPass }) =>
      `Season allowance: ${en(share, 0)}% used (${en(used, 0)} of ${en(amount, 0)} ${UNITS[unit]})${wouldPass ? ', and this pass would go beyond it' : ''}`,
  },
  pl: {
    start: ({ at, zone, due, late }) =>
      `Start ${plMoment(at)}${zone ? `, ${plZone(zone)}` : ''}; najpóźniej: ${plMoment(due)}${late ? ', ta chwila już minęła' : ''}`,
    wait_tariff: ({ until, zone, price, priceNow, currency, due }) =>
      `Start odłożony na ${plMoment(until)}, ${plZone(zone)} (${spokenNumber(price, 'pl', 2, true)} zamiast ${spokenNumber(priceNow, 'pl', 2, true)} ${currency}/kWh); najpóźniej: ${plMoment(due)}`,
    wait_hours: ({ until, due, late }) =>
      `Start odłożony na ${plMoment(until)}, pierwszą dozwoloną godzinę; najpóźniej: ${plMoment(due)}${late ? ', ta chwila już minęła' : ''}`,
    skip_rain: ({ rainMm, withinHours, depletionMm, rawMm }) =>
      `Pominięto: prognoza ${pl(rainMm)} mm deszczu w ciągu ${withinHours} h; deficyt wody ${pl(depletionMm, 0)} z ${pl(rawMm, 0)} mm (RAW)`,
    reconcile: ({ forecastMm, fallenMm, then }) =>
      `Nawadnianie przywrócone: prognozowano ${pl(forecastMm)} mm deszczu, spadło ${pl(fallenMm)} mm. ${then}`,
    pause_wind: ({ windMs, maxMs }) => `Wstrzymano: wiatr ${pl(windMs)} m/s, powyżej limitu ${pl(maxMs)} m/s`,
    pause_frost: ({ temperatureC, minC }) =>
      `Wstrzymano: ${pl(temperatureC)} °C, poniżej progu przymrozku ${pl(minC)} °C`,
    resume: ({ windMs, temperatureC }) =>
      windMs === null || temperatureC === null
        ? 'Wznowiono: żaden limit pogodowy już nie wstrzymuje maszyny'
        : `Wznowiono: wiatr ${pl(windMs)} m/s i temperatura ${pl(temperatureC)} °C znów mieszczą się w limitach`,
    queue_pump: ({ pump, maxAtOnce, ahead }) =>
      `W kolejce: pompa ${pump} zasila najwyżej ${plMachines(maxAtOnce)} naraz; wcześniej: ${ahead.join(', ')}`,
    pump_peers_unnamed: ({ count }) => plOtherMachines(count),
    refuse_offline: () => 'Nie uruchomiono: maszyna jest offline',
    refuse_alarm: () => 'Nie uruchomiono: maszyna zgłasza alarm',
    refuse_incident: ({ incident }) =>
      incident === null
        ? 'Nie uruchomiono: maszyna ma otwarty incydent'
        : `Nie uruchomiono: otwarty incydent „${incident}”`,
    refuse_no_station: () =>
      'Nie uruchomiono: brak świeżego odczytu wiatru i temperatury ze stacji, by sprawdzić limity',
    refuse_nothing_to_send: () =>
      'Jeszcze nie uruchomiono: program z porady nie podlewa żadnego sektora, do którego ramię dotarłoby na czas; sprawdzę ponownie wkrótce',
    refuse_allowance: ({ pass, left, used, amount, unit }) =>
      `Nie uruchomiono: przejazd zużyłby ${pl(pass, 0)} ${UNITS[unit]}, a z sezonowego limitu zostało ${pl(left, 0)} ${UNITS[unit]} (zużyto ${pl(used, 0)} z ${pl(amount, 0)} ${UNITS[unit]})`,
    not_due: ({ trigger, depletionMm, rawMm }) =>
      `Jeszcze nie trzeba nawadniać: ${trigger ? `pierwszy obszar potrzebuje wody od: ${plMoment(trigger)}` : 'żaden obszar nie potrzebuje wody w okresie prognozy'}${depletionMm !== null && rawMm !== null ? `; deficyt wody ${pl(depletionMm, 0)} z ${pl(rawMm, 0)} mm (RAW)` : ''}`,
    watering: () => 'Nawadnia: bez zmian',
    allowance_warning: ({ share, used, amount, unit, wouldPass }) =>
      `Limit sezonowy: zużyto ${pl(share, 0)}% (${pl(used, 0)} z ${pl(amount, 0)} ${UNITS[unit]})${wouldPass ? ', a ten przejazd by go przekroczył' : ''}`,
  },
};

export type AutopilotTextCode = keyof AutopilotTexts;
export type AutopilotTextParams<C extends AutopilotTextCode> = Parameters<AutopilotTexts[C]>;

export const AUTOPILOT_TEXT_CODES = Object.keys(AUTOPILOT_TEXTS.en) as AutopilotTextCode[];

export function autopilotText<C extends AutopilotTextCode>(
  code: C,
  language: Language,
  ...params: AutopilotTextParams<C>
): string {
  const text = AUTOPILOT_TEXTS[language][code] as (...args: AutopilotTextParams<C>) => string;
  return text(...params);
}
